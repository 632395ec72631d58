# The churn check's workload in Python, with no SDK (standard library only): python3 python-client.py URL
import json, os, sys, time, urllib.request
from concurrent.futures import ThreadPoolExecutor

context, url, session, ids = json.loads(os.environ["MCP_CHURN_CONTEXT"]), sys.argv[-1], None, iter(range(1, 10**9))

def rpc(method, params=None, notification=False):
    global session
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    if session: headers["mcp-session-id"] = session
    message = {"jsonrpc": "2.0", "method": method, "params": params or {}}
    if not notification: message["id"] = next(ids)
    request = urllib.request.Request(url, json.dumps(message).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=context["callTimeoutMs"] / 1000) as response:  # 4xx/5xx raise
        session = response.headers.get("mcp-session-id") or session
        body = response.read().decode()
    if notification: return None
    lines = [l[5:] for l in body.splitlines() if l.startswith("data:") and l[5:].strip()] or [body]
    answer = next(m for m in map(json.loads, lines) if m.get("id") == message["id"])
    if "error" in answer: raise RuntimeError(answer["error"]["message"])
    return answer["result"]

def call(c):
    try:
        result = rpc("tools/call", {"name": c["tool"], "arguments": c["arguments"]})
        return {"id": c["id"], "ok": not result.get("isError"), "text": result["content"][0]["text"]}
    except Exception as error:
        return {"id": c["id"], "ok": False, "error": str(error)}

if context["revision"] != "2025-11-25": sys.exit(print(json.dumps({"skip": "this client speaks 2025-11-25 only"})))
if "auth" in context: sys.exit(print(json.dumps({"skip": "this client sends no credentials"})))
rpc("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "churn-python", "version": "1"}})
rpc("notifications/initialized", notification=True)
rpc("tools/list")
for step in context["steps"]:
    time.sleep(step.get("pauseMs", 0) / 1000)
    with ThreadPoolExecutor(max_workers=len(step["calls"])) as pool:
        for outcome in pool.map(call, step["calls"]):
            print(json.dumps(outcome), flush=True)
