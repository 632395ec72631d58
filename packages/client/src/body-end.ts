/**
 * The same response, telling `done` once when its body has been read to the end, broke, or
 * was cancelled (or at once, when it has no body): how the engine knows a call or a stream is
 * over.
 *
 * @example
 * return whenBodyEnds(response, () => session.leave());
 */
export function whenBodyEnds(response: Response, done: () => void): Response {
  let called = false;
  const once = () => {
    if (!called) (called = true), done();
  };
  if (!response.body) {
    once();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          once();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        once();
        controller.error(error);
      }
    },
    cancel(reason) {
      once();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
