/* trace.h - a PyTorch profiler trace (Chrome/Kineto JSON, plain or gzip),
 * read one event at a time.
 *
 * The file is streamed: a 1 GB trace costs one read buffer, one inflate
 * window and the text of the current event, never the whole document.
 * Gzip is recognised by its magic bytes, not by the file name, and read
 * with zlib: one or more members back to back (as `cat a.gz b.gz` makes),
 * each member's CRC-32 and length checked, nothing but another member
 * after a member.
 *
 * Accepted shapes: the object form {"traceEvents": [ {...}, ... ], ...}
 * with traceEvents anywhere among the top-level keys, and the bare array
 * form [ {...}, ... ].  Top-level members other than traceEvents that are
 * small (under 1 MiB of text: schemaVersion, distributedInfo,
 * deviceProperties, ...) are kept and can be read with trace_meta().
 *
 * Errors: functions that can fail return -1/NULL after
 * err_set(ECG_EXIT_INPUT, ...) with a message that names the file and the
 * byte offset (in the uncompressed text) where reading stopped, and the
 * number of events returned before it, e.g.
 *   "t.json: truncated at byte 1048576 (after event 2113)"
 *   "t.json.gz: truncated gzip data at byte 65536 (after event 140, gzip byte 9011)"
 *   "t.json.gz: bad gzip data: CRC mismatch at byte ... (after event ..., gzip byte ...)"
 *   "t.json.gz: bad gzip data: data after member 1 is not gzip at byte ..."
 * (zlib's other messages follow "bad gzip data: " as zlib words them,
 * e.g. "invalid block type")
 *   "t.json: bad JSON at byte 70 (after event 1): expected ',' or ']', found 'x'"
 *   "t.json: not JSON: found '<' at byte 0 where { or [ should be"
 *   "t.json: not a trace: no traceEvents"
 * ("gzip byte" is how far the decompressor had got in the file.)  Every
 * event returned before an error stays valid: the caller keeps its partial
 * results.
 *
 * Limits: an event of more than 64 MiB of text is an error; a top-level
 * member of 1 MiB or more is skipped without being parsed.  Numbers go
 * through cJSON, i.e. become doubles: integers above 2^53 (e.g.
 * baseTimeNanoseconds) lose their last digits.
 *
 * Memory: about 300 KiB (zlib's inflate state and window included) plus the text of the largest event (its buffer is
 * given back after an event of more than 256 KiB) and the kept members.
 */
#ifndef ECG_TRACE_H
#define ECG_TRACE_H

#include <stdint.h>
#include <cjson/cJSON.h>

typedef struct trace_reader trace_reader;

/* Open PATH ("-" reads stdin, which is not closed) and read its first
 * bytes to tell gzip from plain text.  NULL after err_set() when it cannot
 * be opened or read.  The bytes are not judged here: trace_next() reports
 * a file that is not a trace.  The reader is the caller's: trace_close(). */
trace_reader *trace_open(const char *path);

/* The next element of traceEvents.  Returns 1 and sets *ev to a new object
 * (the caller cJSON_Delete()s it), 0 at the end of the array (the rest of
 * the document is still read so that top-level members after it reach
 * trace_meta(), and a document truncated after the array is reported),
 * -1 after err_set(): not JSON, truncated, bad gzip data, an element that
 * is not an object, an event of more than 64 MiB of text.  After -1 or 0
 * further calls return the same value without reading. */
int trace_next(trace_reader *r, cJSON **ev);

/* The top-level members other than traceEvents seen so far (an object,
 * owned by the reader; never NULL). */
const cJSON *trace_meta(const trace_reader *r);

/* Bytes read so far: of the file as stored, and of the JSON text after
 * decompression (the same for a plain file). */
uint64_t trace_bytes_in(const trace_reader *r);
uint64_t trace_bytes_text(const trace_reader *r);

/* Number of events returned so far. */
uint64_t trace_events(const trace_reader *r);

/* After trace_next() returned -1: 1 when the only fault was that the input
 * ended early ("truncated": the events returned are the file's first ones,
 * as far as can be told), 0 for anything else -- bad gzip data (a CRC or
 * length mismatch, bytes after the last member, a bad DEFLATE stream), bad
 * JSON, an event too large, a read error: the events returned before may
 * come from damaged data. */
int trace_cut(const trace_reader *r);

/* Whether the file is gzip. */
int trace_is_gzip(const trace_reader *r);

/* Close the file and free everything.  NULL is allowed. */
void trace_close(trace_reader *r);

#endif
