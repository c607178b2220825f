// OpenTelemetry GenAI semantic-convention attribute names used on Tessera's spans.
// (Spelled out here because the conventions are still "incubating" upstream.)
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  embeddingsDimensionCount: 'gen_ai.embeddings.dimension.count',
  requestEncodingFormats: 'gen_ai.request.encoding_formats',
} as const;
