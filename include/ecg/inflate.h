/* inflate.h - a streaming DEFLATE decoder (RFC 1951) with gzip framing
 * (RFC 1952), written for ecg so that nothing depends on zlib.
 *
 * Input is pushed in chunks of any size (down to one byte) and output is
 * taken in chunks of any size: the decoder keeps its own state between
 * calls (bit buffer, the 32 KiB window, the Huffman tables of the current
 * block), so memory is constant (about 150 KiB) whatever the stream size.
 *
 * Gzip mode reads one or more members back to back (as `cat a.gz b.gz`
 * makes), checks each member's header (magic, method 8, reserved flags,
 * the header CRC when FHCRC is set) and its trailer (CRC-32 and ISIZE of
 * the member's data).  Anything after a member that is not another member
 * is an error.  Raw mode reads one bare DEFLATE stream; input after its
 * final block is an error.
 *
 * Errors: inflate_step() returns -1 after err_set(ECG_EXIT_INPUT, ...) with
 * a short phrase meant to be followed by a position, e.g.
 * "truncated gzip data",
 * "bad gzip data: invalid block type 3", "bad gzip data: CRC mismatch
 * (stored 0x..., computed 0x...)".  A message starts with "truncated"
 * exactly when the input ended (eof) inside a member or block.  The bytes
 * decoded before the error are handed out first (so a cut file yields
 * all it can); -1 comes once they are gone, and again on every later
 * call, with the same message.  The decoder never reads or writes outside
 * the buffers it is given, whatever the input.
 */
#ifndef ECG_INFLATE_H
#define ECG_INFLATE_H

#include <stddef.h>
#include <stdint.h>

typedef struct inflate_stream inflate_stream;

enum inflate_format {
	INFLATE_RAW,   /* a bare RFC 1951 stream */
	INFLATE_GZIP   /* one or more RFC 1952 members */
};

/* A new decoder (owned by the caller, freed with inflate_free()).  Never
 * fails (allocation cannot fail, see util.h). */
inflate_stream *inflate_new(enum inflate_format fmt);

/* Decompress.  *in / *in_len is the input not yet given to the decoder;
 * both are advanced past what it takes.  Writes at most cap (> 0) bytes to
 * out and returns how many.  It returns when out is full, when all of the
 * input has been taken in (bytes that cannot be decoded yet are kept
 * inside), or when the stream has ended.  eof says that no input will
 * follow *in.
 *
 * So: a return of 0 without eof means "give me more input" (*in_len is 0
 * then); a return of 0 with eof means the stream ended cleanly (every
 * member's CRC and length matched).  -1 after err_set() on bad or truncated
 * data. */
ptrdiff_t inflate_step(inflate_stream *s, const uint8_t **in, size_t *in_len,
	uint8_t *out, size_t cap, int eof);

/* Number of complete gzip members (or 1 for a finished raw stream). */
uint64_t inflate_members(const inflate_stream *s);

/* Free the decoder.  NULL is allowed. */
void inflate_free(inflate_stream *s);

#endif
