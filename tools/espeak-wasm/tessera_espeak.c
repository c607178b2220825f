// The C side of Tessera's phonemiser: a few exports over espeak-ng's clause translator, built to
// WebAssembly (WASI) by build.sh and driven from libs/tts/src/phonemize/espeak.phonemizer.ts.
//
// Why not espeak_TextToPhonemes: it drops the clause terminator (full stop, comma, question...),
// and Piper keeps the punctuation as phonemes and splits sentences on it. espeak-ng computes the
// terminator in TranslateClauseWithTerminator; the public API that returns it
// (espeak_TextToPhonemesWithTerminator) is not in every release, so this file does the same
// three steps itself: decode the text, translate one clause, render its phonemes.
#include <stdlib.h>
#include <string.h>

#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>

#include "dictionary.h"
#include <espeak-ng/encoding.h>
#include "readclause.h"
#include "translate.h"

// The text being phonemised: owned here so the JavaScript side only passes bytes in and reads
// results out of linear memory.
static const char *cursor = NULL;
static char *text_copy = NULL;
static int last_terminator = 0;

__attribute__((export_name("tessera_alloc"))) void *tessera_alloc(size_t size) { return malloc(size); }

__attribute__((export_name("tessera_free"))) void tessera_free(void *pointer) { free(pointer); }

// 0 on success. `data_path` is the directory holding espeak-ng-data/.
__attribute__((export_name("tessera_initialize"))) int tessera_initialize(const char *data_path) {
  return espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, data_path, 0) < 0 ? -1 : 0;
}

// 0 on success.
__attribute__((export_name("tessera_set_voice"))) int tessera_set_voice(const char *name) {
  return espeak_SetVoiceByName(name) == EE_OK ? 0 : -1;
}

// Takes a copy of the UTF-8 text to phonemise clause by clause.
__attribute__((export_name("tessera_begin"))) void tessera_begin(const char *text) {
  free(text_copy);
  text_copy = strdup(text);
  cursor = text_copy;
}

// The IPA phonemes of the next clause (NUL-terminated, valid until the next call), or NULL when
// the text is used up or cannot be decoded. tessera_terminator() then gives the clause's flags.
__attribute__((export_name("tessera_next_clause"))) const char *tessera_next_clause(void) {
  if (cursor == NULL) return NULL;
  if (p_decoder == NULL) p_decoder = create_text_decoder();
  if (text_decoder_decode_string_multibyte(p_decoder, cursor, translator->encoding, espeakCHARS_AUTO) != ENS_OK) {
    cursor = NULL;
    return NULL;
  }
  last_terminator = 0;
  TranslateClauseWithTerminator(translator, NULL, NULL, &last_terminator);
  cursor = text_decoder_get_buffer(p_decoder);
  return GetTranslatedPhonemeString(espeakPHONEMES_IPA);
}

__attribute__((export_name("tessera_terminator"))) int tessera_terminator(void) { return last_terminator; }

#ifdef __wasi__
#include <stdio.h>
// WASI's libc has no temporary files. espeak-ng only asks for one to load a sound icon (a WAV
// file played for a character), which phoneme output never does: refuse, as a full disk would.
char *tmpnam(char *buffer) {
  (void)buffer;
  return NULL;
}
#endif
