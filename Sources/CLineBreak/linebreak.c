// ICU's headers rename every function with the library's version (ubrk_open is ubrk_open_72
// on Debian 12); called from here, Swift never sees the version or ICU's types.
#include "CLineBreak.h"
#include <unicode/ubrk.h>

void *meridian_line_breaker(const char *locale) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *b = ubrk_open(UBRK_LINE, locale, NULL, 0, &status);
    if (U_FAILURE(status)) {
        if (b) ubrk_close(b);
        return NULL;
    }
    return b;
}

int meridian_line_breaker_set_text(void *b, const uint16_t *text, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText((UBreakIterator *)b, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return 0;
    (void)ubrk_first((UBreakIterator *)b);
    return 1;
}

int32_t meridian_line_breaker_next(void *b) {
    int32_t next = ubrk_next((UBreakIterator *)b);
    return next == UBRK_DONE ? -1 : next;
}

int meridian_line_breaker_is_hard(void *b) {
    int32_t status = ubrk_getRuleStatus((UBreakIterator *)b);
    return status >= UBRK_LINE_HARD && status < UBRK_LINE_HARD_LIMIT;
}

void meridian_line_breaker_close(void *b) { ubrk_close((UBreakIterator *)b); }
