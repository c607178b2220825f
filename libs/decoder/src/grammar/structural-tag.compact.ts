// XGrammar compiles a structural tag's `json_schema` contents with free whitespace (its
// FromJSONSchema defaults), which lets a weak or random model write blanks until max_tokens —
// the reason the JSON grammars here are compiled without it (grammar.compiler.ts). So each such
// content is replaced by the EBNF of the same schema converted the compact way, as a `grammar`
// content: the same values, on one line with json.dumps' separators.

/** A structural tag (JSON text) whose `json_schema` contents are EBNF `grammar` contents. */
export async function compactStructuralTag(
  structuralTag: string,
  toEbnf: (schema: string) => Promise<string>,
): Promise<string> {
  return JSON.stringify(await compact(JSON.parse(structuralTag) as unknown, toEbnf));
}

async function compact(
  value: unknown,
  toEbnf: (schema: string) => Promise<string>,
): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((item) => compact(item, toEbnf)));
  if (value === null || typeof value !== 'object') return value;
  const node = value as Record<string, unknown>;
  if (node.type === 'json_schema' && 'json_schema' in node) {
    return { type: 'grammar', grammar: await toEbnf(JSON.stringify(node.json_schema)) };
  }
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node)) out[key] = await compact(child, toEbnf);
  return out;
}
