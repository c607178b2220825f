"""Writes chat-template.expectations.json: Python transformers' apply_chat_template for the cases
the TypeScript spec renders with transformers.js, which must give the same text and ids.

Run (transformers 4.57 is in the fixture tool's venv):
  tools/fixtures/.venv/bin/python libs/text/test/chat-template.expectations.py <tokenizer dir>
with the SmolLM2 tokenizer and chat_template.jinja (test/fixtures/models/tiny-llama).

Each case holds `prompt` (the engine's PromptMessage list the spec passes to renderChat) and `hf`
(the same conversation written by hand in the Hugging Face message format Python receives), so
the mapping between the two is checked, not assumed.
"""

import json
import sys
from pathlib import Path

from transformers import AutoTokenizer

HERE = Path(__file__).parent
TEMPLATES = {name: (HERE / "templates" / f"{name}.jinja").read_text() for name in ("tools", "developer")}

WEATHER_ARGS = '{"city": "Paris", "unit": "celsius"}'

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
        "prompt": [
            {"role": "developer", "content": "Answer in French."},
            {"role": "user", "content": "Hello"},
        ],
        "hf": [
            {"role": "system", "content": "Answer in French."},
            {"role": "user", "content": "Hello"},
        ],
    },
    {
        "name": "developer-role-template",
        "template": "developer",
        "prompt": [
            {"role": "developer", "content": "Answer in French. "},
            {"role": "user", "content": "Hello"},
        ],
    },
    {
        # SmolLM2's template prints the role and content of a tool message as they are.
        "name": "tool-message",
        "prompt": [
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": "Let me check."},
            {"role": "tool", "content": '{"temp": 21}', "toolCallId": "call_1"},
        ],
        "hf": [
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": "Let me check."},
            {"role": "tool", "content": '{"temp": 21}', "tool_call_id": "call_1"},
        ],
    },
    {
        "name": "tool-calls",
        "template": "tools",
        "prompt": [
            {"role": "system", "content": "You can call tools."},
            {"role": "user", "content": "Weather in Paris and Rome?", "name": "alice"},
            {
                "role": "assistant",
                "content": None,
                "toolCalls": [
                    {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": WEATHER_ARGS}},
                    {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Rome"}'}},
                ],
            },
            {"role": "tool", "content": '{"temp": 21}', "toolCallId": "call_1"},
            {"role": "tool", "content": '{"temp": 25}', "toolCallId": "call_2"},
        ],
        "hf": [
            {"role": "system", "content": "You can call tools."},
            {"role": "user", "content": "Weather in Paris and Rome?", "name": "alice"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}},
                    {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Rome"}}},
                ],
            },
            {"role": "tool", "content": '{"temp": 21}', "tool_call_id": "call_1"},
            {"role": "tool", "content": '{"temp": 25}', "tool_call_id": "call_2"},
        ],
    },
]


def main() -> None:
    tokenizer = AutoTokenizer.from_pretrained(sys.argv[1])
    out = []
    for case in CASES:
        hf = case.get("hf", case["prompt"])
        template = TEMPLATES[case["template"]] if "template" in case else None
        kwargs = {"add_generation_prompt": True, "chat_template": template}
        text = tokenizer.apply_chat_template(hf, tokenize=False, **kwargs)
        ids = tokenizer.apply_chat_template(hf, tokenize=True, **kwargs)
        out.append({**case, "hf": hf, "text": text, "ids": list(ids)})
    path = HERE / "chat-template.expectations.json"
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(out)} cases to {path}")


main()
