// The tiny decoder the decoder specs run on (random weights, SmolLM2's real tokenizer and chat
// template, plain attention: 2 layers, 2 KV heads, head size 16).
export const TINY_LLAMA = '/work/dev/models/tiny-llama';
