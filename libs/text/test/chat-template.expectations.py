"""Writes chat-template.expectations.json: Python transformers' apply_chat_template for the cases
the TypeScript spec renders with transformers.js, which must give the same text and ids.

Run (transformers 4.57 is in the fixture tool's venv):
  tools/fixtures/.venv/bin/python libs/text/test/chat-template.expectations.py <tokenizer dir>
with the SmolLM2 tokenizer and chat_template.jinja (test/fixtures/models/tiny-llama), then
`npx prettier --write` on the JSON. Cases marked "sentencepiece" use ./sentencepiece instead.

Each case holds `prompt` (the engine's PromptMessage list the spec passes to renderChat) and `hf`
(the same conversation written by hand in the Hugging Face message format Python receives), so
the mapping between the two is checked, not assumed. Cases with tools hold them in the engine's
shape (`tools`: parameters as JSON text) and in the request's (`hf_tools`, passed as `tools=`).
Template "qwen2" is Qwen2.5-Instruct's own, from test/fixtures/models/tiny-qwen2.
"""

import json
import sys
from pathlib import Path

from transformers import AutoTokenizer

HERE = Path(__file__).parent
TEMPLATES = {name: (HERE / "templates" / f"{name}.jinja").read_text() for name in ("tools", "developer")}
QWEN2_DIR = HERE / "../../../test/fixtures/models/tiny-qwen2"
TEMPLATES["qwen2"] = json.loads((QWEN2_DIR / "tokenizer_config.json").read_text())["chat_template"]

HF_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": 'Current weather in a city ("now"), e.g. 東京',
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    "days": {"type": "integer", "minimum": 1, "maximum": 7},
                },
                "required": ["city"],
            },
        },
    },
    {"type": "function", "function": {"name": "list_files", "parameters": {"type": "object", "properties": {}}}},
]
ENGINE_TOOLS = [
    {
        "name": tool["function"]["name"],
        **({"description": tool["function"]["description"]} if "description" in tool["function"] else {}),
        "parameters": json.dumps(tool["function"]["parameters"], ensure_ascii=False),
        "strict": False,
    }
    for tool in HF_TOOLS
]

WEATHER_ARGS = '{"city": "Paris", "unit": "celsius"}'
HELLO = {"role": "user", "content": "Hello"}
TOOL_INTRO = [
    {"role": "system", "content": "You can call tools."},
    {"role": "user", "content": "Weather in Paris and Rome?", "name": "alice"},
]
WEATHER_TURNS = [
    {"role": "user", "content": "Weather in Paris?"},
    {"role": "assistant", "content": "Let me check."},
]

CASES = [
    {
        "name": "system",
        "prompt": [
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": "What is the capital of France?"},
        ],
    },
    {
        "name": "multi-turn",
        "prompt": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "Hi!"},
            {"role": "assistant", "content": "Hello! How can I help?"},
            {"role": "user", "content": "Say 世界 and 🎉, then stop."},
        ],
    },
    {
        # SmolLM2's template injects its own default system prompt.
        "name": "no-system",
        "prompt": [{"role": "user", "content": "What is the capital of France?"}],
    },
    {
        # SmolLM2's template has no developer role: rendered as system.
        "name": "developer",
        "prompt": [{"role": "developer", "content": "Answer in French."}, HELLO],
        "hf": [{"role": "system", "content": "Answer in French."}, HELLO],
    },
    {
        "name": "developer-role-template",
        "template": "developer",
        "prompt": [{"role": "developer", "content": "Answer in French. "}, HELLO],
    },
    {
        # SmolLM2's template prints the role and content of a tool message as they are.
        "name": "tool-message",
        "prompt": [*WEATHER_TURNS, {"role": "tool", "content": '{"temp": 21}', "toolCallId": "call_1"}],
        "hf": [*WEATHER_TURNS, {"role": "tool", "content": '{"temp": 21}', "tool_call_id": "call_1"}],
    },
    {
        "name": "tool-calls",
        "template": "tools",
        "prompt": [
            *TOOL_INTRO,
            {
                "role": "assistant",
                "content": None,
                "toolCalls": [
                    {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": WEATHER_ARGS}},
                    {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Zürich 東京"}'}},
                ],
            },
            {"role": "tool", "content": '{"temp": 21}', "toolCallId": "call_1"},
            {"role": "tool", "content": '{"temp": 25}', "toolCallId": "call_2"},
        ],
        "hf": [
            *TOOL_INTRO,
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}},
                    {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Zürich 東京"}}},
                ],
            },
            {"role": "tool", "content": '{"temp": 21}', "tool_call_id": "call_1"},
            {"role": "tool", "content": '{"temp": 25}', "tool_call_id": "call_2"},
        ],
    },
    {
        # Qwen2.5's own template: tools in its system prompt, then a full round trip (the
        # assistant's call with content None, the tool's result as a <tool_response>).
        "name": "qwen2-tools-round-trip",
        "template": "qwen2",
        "tools": ENGINE_TOOLS,
        "hf_tools": HF_TOOLS,
        "prompt": [
            {"role": "user", "content": "Weather in Paris?"},
            {
                "role": "assistant",
                "content": None,
                "toolCalls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": WEATHER_ARGS}}],
            },
            {"role": "tool", "content": '{"temp": 21}', "toolCallId": "call_1"},
        ],
        "hf": [
            {"role": "user", "content": "Weather in Paris?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}}],
            },
            {"role": "tool", "content": '{"temp": 21}', "tool_call_id": "call_1"},
        ],
    },
    {
        "name": "qwen2-tools-system",
        "template": "qwen2",
        "tools": ENGINE_TOOLS,
        "hf_tools": HF_TOOLS,
        "prompt": [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Files?"}],
    },
    {
        # Llama 2's layout (SentencePiece, '▁' spaces): template in tokenizer_config.json with
        # {{ bos_token }}, so the ids start with <s> once and the spaces around [INST] hold.
        "name": "sentencepiece-multi-turn",
        "tokenizer": "sentencepiece",
        "prompt": [
            {"role": "user", "content": "The capital of France?"},
            {"role": "assistant", "content": "Paris."},
            {"role": "user", "content": "And of Italy? 🎉"},
        ],
    },
]


def main() -> None:
    tokenizers = {
        "model": AutoTokenizer.from_pretrained(sys.argv[1]),
        "sentencepiece": AutoTokenizer.from_pretrained(HERE / "sentencepiece"),
    }
    out = []
    for case in CASES:
        tokenizer = tokenizers[case.get("tokenizer", "model")]
        hf = case.get("hf", case["prompt"])
        template = TEMPLATES[case["template"]] if "template" in case else None
        kwargs = {"add_generation_prompt": True, "chat_template": template, "tools": case.get("hf_tools")}
        text = tokenizer.apply_chat_template(hf, tokenize=False, **kwargs)
        ids = tokenizer.apply_chat_template(hf, tokenize=True, **kwargs)
        out.append({**case, "hf": hf, "text": text, "ids": list(ids)})
    path = HERE / "chat-template.expectations.json"
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(out)} cases to {path}")


main()
