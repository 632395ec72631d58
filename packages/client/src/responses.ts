/**
 * What a response made from another keeps of it: its status, status text and headers.
 *
 * @example
 * return new Response(text, sameHead(response));
 */
export function sameHead(response: { readonly status: number; readonly statusText: string; readonly headers: Headers }): ResponseInit {
  return { status: response.status, statusText: response.statusText, headers: response.headers };
}

/**
 * Drops a response's body unread (nobody will read it); never rejects.
 *
 * @example
 * await discard(response);
 */
export function discard(response: Response | undefined): Promise<void> | undefined {
  return response?.body?.cancel().catch(() => {});
}
