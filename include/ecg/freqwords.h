/* freqwords.h - a schedule entry's frequency (records.md: "every
 * eval_interval=2000 steps \u00d7400", "every epoch (iteration of `LOOP`)
 * \u00d7?") as words with units for a person: "400 x every 2000 steps
 * (eval_interval)", "every epoch x? (a loop's count not known)".  The
 * records keep their text; this is the reading of `ecg show --schedule`
 * and of the page.
 */
#ifndef ECG_FREQWORDS_H
#define ECG_FREQWORDS_H

#include <stddef.h>

/* f's words into out (n bytes, always terminated; cut when longer).
 * ASCII except what f quotes.  Never fails. */
void freq_words(const char *f, char *out, size_t n);

#endif
