import { CredentialRefusal } from './credential-refusal.ts';
import { withCredentials } from './credentials.ts';

/**
 * One client's credentials as its latest request sent them (see `credentialNames`), in memory
 * only: what a request sent again, and each of the engine's own requests for that client, carry
 * in place of whatever credentials they had. Nothing else of a request is the client's: its
 * other headers (an `Idempotency-Key`, a trace context, a signature) stay its own. A refusal of
 * them is a {@link CredentialRefusal}.
 *
 * @example
 * const client = new ClientHeaders(CREDENTIAL_HEADERS, false);
 * client.note(new Headers({ authorization: 'Bearer a', 'idempotency-key': 'k1' }));
 * client.onto(replayedHeaders); // its own headers, `authorization: Bearer a` over them
 */
export class ClientHeaders extends CredentialRefusal {
  #current = new Headers();
  readonly #names: ReadonlySet<string>;

  constructor(names: ReadonlySet<string>, renews: boolean) {
    super(renews);
    this.#names = names;
  }

  /** Takes the credentials of a request the client sent; a change of them (one dropped too) is new credentials. */
  note(headers: Headers): void {
    let changed = false;
    for (const name of this.#names) {
      const value = headers.get(name);
      if (value === this.#current.get(name)) continue;
      if (!changed) this.#current = new Headers(this.#current); // a copy: a request built on the old ones keeps them
      changed = true;
      if (value === null) this.#current.delete(name);
      else this.#current.set(name, value);
    }
    if (changed) this.version++;
  }

  /** `base` (a request's own headers) with the client's current credentials in place of its own, and no spent DPoP proof. */
  onto(base?: HeadersInit): Headers {
    return withCredentials(base, this.#current, this.#names);
  }
}
