// What a capability plugs into the bare two-hop relay (bare-relay.server.ts): the gRPC method of
// its contract, how the model process answers it with the reference pipeline, and how the HTTP
// process turns the OpenAI request body into that gRPC request and the reply back into JSON. A
// handler module exports one as `relayHandler`; the relay's processes load it by path. The type
// parameters are the proto-loader types: a request as sent and as received, a reply as sent and
// as received.
import type { Capability } from '@tessera/contracts';

export interface RelayHandler<
  Sent = unknown,
  Received = unknown,
  Answer = unknown,
  Reply = unknown,
> {
  /** The contract (proto service) both processes speak. */
  readonly service: Capability;
  /** The unary method the HTTP process calls, e.g. `Embed`. */
  readonly method: string;
  /** Model process: loads the reference pipeline once; answers one request per call. */
  serve(modelDir: string): Promise<(request: Received) => Promise<Answer>>;
  /** HTTP process: the gRPC request for a POSTed JSON body. */
  toRequest(body: unknown): Sent;
  /** HTTP process: the JSON body answered for a gRPC reply. */
  toJson(reply: Reply): unknown;
}
