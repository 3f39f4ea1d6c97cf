#include <fribidi.h>

/* FRIBIDI_PAR_ON is a macro of macros Swift does not import: the paragraph direction
   taken from its first strong character. */
static inline FriBidiParType meridian_fribidi_par_on(void) { return FRIBIDI_PAR_ON; }
