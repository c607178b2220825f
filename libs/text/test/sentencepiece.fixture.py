"""Writes libs/text/test/sentencepiece/: a small tokenizer in the layout of Llama 2's
tokenizer.json (SentencePiece BPE: '▁' for spaces, <0xAB> byte-fallback tokens, a decoder that
strips the first leading space), trained with Hugging Face `tokenizers` on a few English
sentences, so characters it never saw (CJK, emoji) come out as byte tokens.

Run: tools/fixtures/.venv/bin/python libs/text/test/sentencepiece.fixture.py
"""

import json
from pathlib import Path

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

OUT = Path(__file__).parent / "sentencepiece"
CORPUS = [
    "The quick brown fox jumps over the lazy dog.",
    "Hello world, this is a small tokenizer for streaming tests.",
    "Stop strings may arrive split over several tokens of the stream.",
    "The capital of France is Paris; the capital of Italy is Rome.",
    "Leading spaces matter: a SentencePiece token carries its own space.",
] * 20
SPECIALS = ["<unk>", "<s>", "</s>"]
BYTES = [f"<0x{b:02X}>" for b in range(256)]

trainer = models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True)
tokenizer = Tokenizer(trainer)
tokenizer.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
# Trained on words that start with '▁' as SentencePiece's pieces do; Llama 2 then tokenizes
# without a pre-tokenizer, so it is dropped below.
tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="never", split=True)
tokenizer.train_from_iterator(
    CORPUS, trainers.BpeTrainer(vocab_size=400, special_tokens=SPECIALS + BYTES, show_progress=False)
)
tokenizer.decoder = decoders.Sequence(
    [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]
)
tokenizer.add_special_tokens(SPECIALS)

data = json.loads(tokenizer.to_str())
# Byte tokens are ordinary vocabulary entries in Llama 2, not added tokens.
data["added_tokens"] = [t for t in data["added_tokens"] if t["content"] in SPECIALS]
data["pre_tokenizer"] = None
OUT.mkdir(exist_ok=True)
(OUT / "tokenizer.json").write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
config = {
    "tokenizer_class": "LlamaTokenizer",
    "bos_token": "<s>",
    "eos_token": "</s>",
    "unk_token": "<unk>",
    "add_bos_token": True,
    "add_eos_token": False,
    "legacy": True,
    "chat_template": "{{ bos_token }}{% for message in messages %}{% if message['role'] == 'user' %}"
    "{{ '[INST] ' + message['content'] + ' [/INST]' }}{% else %}{{ message['content'] + eos_token }}"
    "{% endif %}{% endfor %}",
}
(OUT / "tokenizer_config.json").write_text(json.dumps(config, indent=1) + "\n")
print("vocab", tokenizer.get_vocab_size())
