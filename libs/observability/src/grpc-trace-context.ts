// W3C trace context over gRPC metadata: the gateway injects `traceparent`, services extract it.
import { Metadata } from '@grpc/grpc-js';
import {
  context,
  propagation,
  type Context,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';

const setter: TextMapSetter<Metadata> = {
  set: (metadata, key, value) => metadata.set(key, value),
};

const getter: TextMapGetter<Metadata> = {
  keys: (metadata) => Object.keys(metadata.getMap()),
  get: (metadata, key) => {
    const values = metadata.get(key).filter((v): v is string => typeof v === 'string');
    return values.length > 1 ? values : values[0];
  },
};

export function injectTraceContext(ctx: Context, metadata: Metadata): Metadata {
  propagation.inject(ctx, metadata, setter);
  return metadata;
}

export function extractTraceContext(metadata: Metadata): Context {
  return propagation.extract(context.active(), metadata, getter);
}
