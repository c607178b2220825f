// The methods of each capability's service, typed from the generated definitions: which names
// exist and what each one takes and returns.
import type { MethodDefinition } from '@grpc/proto-loader';
import type { Capability, loadService } from '@tessera/contracts';

type Definition<C extends Capability> = ReturnType<typeof loadService<C>>['service'];

/** The method names of C's service (the definition's index signature left out). */
export type MethodOf<C extends Capability> = keyof {
  [K in keyof Definition<C> as string extends K ? never : K]: 0;
} &
  string;

/** What the method takes (the message as written). */
export type RequestOf<C extends Capability, M extends MethodOf<C>> =
  Definition<C>[M] extends MethodDefinition<infer Req, infer _Res, infer _ReqOut, infer _ResOut>
    ? Req
    : never;

/** What the method returns (the message as decoded). */
export type ResponseOf<C extends Capability, M extends MethodOf<C>> =
  Definition<C>[M] extends MethodDefinition<infer _Req, infer _Res, infer _ReqOut, infer ResOut>
    ? ResOut
    : never;
