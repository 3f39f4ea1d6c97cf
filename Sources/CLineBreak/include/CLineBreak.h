// Unicode line breaking (UAX #14) for label text, through ICU's line-break iterator. Plain C
// types only: ICU's own headers stay inside linebreak.c (see Sources/CICU).
#include <stdint.h>

/// A line-break iterator for `locale` ("" for the root rules), no text yet; NULL on failure.
void *meridian_line_breaker(const char *locale);

/// Points `b` at `length` UTF-16 units of `text` (kept by the caller while in use) and
/// rewinds it to the start; 0 on failure.
int meridian_line_breaker_set_text(void *b, const uint16_t *text, int32_t length);

/// The next break opportunity after the previous one (the first call gives the first after
/// the start), in UTF-16 units; -1 past the end.
int32_t meridian_line_breaker_next(void *b);

/// Whether the break `meridian_line_breaker_next` last gave is mandatory (after a line feed,
/// a paragraph separator…).
int meridian_line_breaker_is_hard(void *b);

void meridian_line_breaker_close(void *b);
