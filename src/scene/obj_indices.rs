//! The range check of an OBJ file's element indices, run before the text reaches
//! `tobj`: tobj 4.0.5 computes with out-of-range indices before it checks them and can
//! overflow (a panic in debug builds, an out-of-bounds index in release).
//!
//! The rule (Wavefront OBJ, "Referencing vertex data"): an index in an `f`, `l` or `p`
//! line counts the `v`, `vt` or `vn` lines *before* that line, from 1 up, or back from
//! the last one with a negative number; 0 and anything past either end is an error.
//!
//! [`first_bad_index`] is the rule, a line at a time. [`check_element_indices`] gives
//! the same answer, faster for big files: it cuts the text into chunks at line ends,
//! summarises each chunk on the worker threads ([`ChunkSummary`]), and combines the
//! summaries in file order; only when they show an error does it run
//! [`first_bad_index`] to name the first bad line.

use rayon::prelude::*;

/// Chunks of about this many bytes are summarised in parallel (a 50 MB mesh makes ~50).
const CHUNK_BYTES: usize = 1 << 20;

/// Kinds of vertex data an element index refers to, in the order of the `v/vt/vn`
/// parts of an index triple.
const KINDS: [&str; 3] = ["vertex", "texture coordinate", "normal"];

/// Checks every index in `f`, `l` and `p` lines against the number of `v`, `vt` and `vn`
/// lines before it (the module's rule).
///
/// # Errors
/// `line N: KIND index I is out of range (C defined)` for the first bad index, with N
/// counted from 1 and C the number of `KIND` lines before line N.
pub(super) fn check_element_indices(text: &str) -> Result<(), String> {
    let summaries: Vec<ChunkSummary> = line_chunks(text, CHUNK_BYTES)
        .par_iter()
        .map(|chunk| ChunkSummary::of(chunk))
        .collect();
    if ChunkSummary::all_in_range(&summaries) {
        Ok(())
    } else {
        first_bad_index(text)
    }
}

/// The rule, a line at a time: the error for the first out-of-range index, if any.
fn first_bad_index(text: &str) -> Result<(), String> {
    let mut counts = [0i64; 3]; // v, vt, vn
    for (number, line) in text.lines().enumerate() {
        match element_line(line) {
            Line::Data(kind) => counts[kind] += 1,
            Line::Element(words) => {
                for (kind, index) in words.flat_map(indices) {
                    let count = counts[kind];
                    if index == 0 || index > count || index < -count {
                        return Err(format!(
                            "line {}: {} index {index} is out of range ({count} defined)",
                            number + 1,
                            KINDS[kind]
                        ));
                    }
                }
            }
            Line::Other => {}
        }
    }
    Ok(())
}

/// What a line is to the rule.
enum Line<'a, W: Iterator<Item = &'a str>> {
    /// `v` (0), `vt` (1) or `vn` (2).
    Data(usize),
    /// `f`, `l` or `p`, with the words after the keyword.
    Element(W),
    /// Anything else (comments, groups, materials, blank lines).
    Other,
}

/// Classifies `line` by its first whitespace-separated word, as tobj does.
#[inline]
fn element_line(line: &str) -> Line<'_, impl Iterator<Item = &str>> {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("v") => Line::Data(0),
        Some("vt") => Line::Data(1),
        Some("vn") => Line::Data(2),
        Some("f" | "l" | "p") => Line::Element(words),
        _ => Line::Other,
    }
}

/// The indices of one `v/vt/vn` word, with their kinds. A part that is empty or not
/// a number is skipped (tobj rejects or ignores it).
#[inline]
fn indices(word: &str) -> impl Iterator<Item = (usize, i64)> + '_ {
    word.split('/')
        .take(3)
        .enumerate()
        .filter_map(|(kind, part)| part.parse::<i64>().ok().map(|i| (kind, i)))
}

/// Cuts `text` into pieces of about `size` bytes, each ending just after a `\n` (the
/// last one at the end of the text), so every piece holds whole lines and
/// `str::lines` over the pieces gives the lines of the whole text.
fn line_chunks(text: &str, size: usize) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut chunks = Vec::with_capacity(text.len() / size.max(1) + 1);
    let mut start = 0;
    while start < bytes.len() {
        let end = match bytes[(start + size).min(bytes.len())..]
            .iter()
            .position(|&b| b == b'\n')
        {
            Some(at) => (start + size).min(bytes.len()) + at + 1,
            None => bytes.len(),
        };
        // A cut after `\n` (ASCII) always falls on a character boundary.
        chunks.push(&text[start..end]);
        start = end;
    }
    chunks
}

/// What the rule needs to know of one chunk, whatever precedes it.
///
/// For each kind `k`: `count[k]` data lines in the chunk; `above[k]`, the most any
/// positive index exceeds the chunk's own data lines before it (`index − before`),
/// and `below[k]`, the most any negative one reaches back past them
/// (`−index − before`). An index in the chunk is in range exactly when the data lines
/// of all earlier chunks number at least both (and it is not 0).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct ChunkSummary {
    count: [i64; 3],
    above: [i128; 3],
    below: [i128; 3],
    zero: bool,
}

impl ChunkSummary {
    fn of(chunk: &str) -> Self {
        let mut s = ChunkSummary {
            above: [i128::MIN; 3],
            below: [i128::MIN; 3],
            ..ChunkSummary::default()
        };
        for line in chunk.lines() {
            match element_line(line) {
                Line::Data(kind) => s.count[kind] += 1,
                Line::Element(words) => {
                    for (kind, index) in words.flat_map(indices) {
                        let (index, before) = (i128::from(index), i128::from(s.count[kind]));
                        match index {
                            0 => s.zero = true,
                            1.. => s.above[kind] = s.above[kind].max(index - before),
                            _ => s.below[kind] = s.below[kind].max(-index - before),
                        }
                    }
                }
                Line::Other => {}
            }
        }
        s
    }

    /// Whether every index of the chunks, taken in order as one text, is in range.
    fn all_in_range(chunks: &[ChunkSummary]) -> bool {
        let mut earlier = [0i128; 3];
        for s in chunks {
            if s.zero {
                return false;
            }
            for (kind, earlier) in earlier.iter_mut().enumerate() {
                if s.above[kind] > *earlier || s.below[kind] > *earlier {
                    return false;
                }
                *earlier += i128::from(s.count[kind]);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The chunked check at chunk size `size`: true when it finds every index in range.
    fn chunked(text: &str, size: usize) -> bool {
        let summaries: Vec<_> = line_chunks(text, size)
            .iter()
            .map(|c| ChunkSummary::of(c))
            .collect();
        ChunkSummary::all_in_range(&summaries)
    }

    #[test]
    fn chunks_hold_whole_lines_and_cover_the_text() {
        let text = "v 1 2 3\nvt 0 0\r\nf 1/1 1/1 1/1\n\nlast";
        for size in [0, 1, 3, 8, 9, 100] {
            let chunks = line_chunks(text, size);
            assert_eq!(chunks.concat(), text, "size {size}");
            assert!(chunks[..chunks.len() - 1].iter().all(|c| c.ends_with('\n')));
            let lines: Vec<_> = chunks.iter().flat_map(|c| c.lines()).collect();
            assert_eq!(lines, text.lines().collect::<Vec<_>>(), "size {size}");
        }
        assert!(line_chunks("", 4).is_empty());
    }

    #[test]
    fn errors_name_the_first_bad_line_kind_and_count() {
        let cases = [
            (
                "v 0 0 0\nv 1 0 0\nvn 0 0 1\nf 1//1 2//1 3//1\nv 0 1 0\nf 1//2 2//1 3//1\n",
                "line 4: vertex index 3 is out of range (2 defined)",
            ),
            (
                "v 0 0 0\nf 1 1 -2\n",
                "line 2: vertex index -2 is out of range (1 defined)",
            ),
            (
                "v 0 0 0\nvt 0 0\nl 1/1 1/0\n",
                "line 3: texture coordinate index 0 is out of range (1 defined)",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(check_element_indices(text).unwrap_err(), message);
        }
        assert_eq!(check_element_indices("v 0 0 0\np 1 -1\nf 1 1 1"), Ok(()));
    }

    #[test]
    fn extreme_indices_do_not_overflow() {
        let min = format!("v 0 0 0\nf 1 1 {}\n", i64::MIN);
        assert!(
            check_element_indices(&min)
                .unwrap_err()
                .starts_with("line 2: vertex index -9223372036854775808")
        );
        let max = format!("v 0 0 0\nf 1 1 {}\n", i64::MAX);
        assert!(check_element_indices(&max).is_err());
        assert!(!chunked(&min, 1) && !chunked(&max, 1));
    }

    /// One OBJ-like line: data lines, element lines with small indices (so that both
    /// valid and invalid files are common), and others; some with leading blanks.
    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            "[ ]?(v|vt|vn)( 0)*",
            "[ ]?(v|vt|vn)( 0)*",
            "[ \t]?(f|l|p)[ \t](-?[0-5]?(/-?[0-5]?){0,2}[ ]){0,4}",
            "(#|g|o|s|vp|fo)( 1)?",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// The chunked summaries agree with the line-at-a-time rule, at every chunk
        /// size from one line per chunk to the whole text.
        #[test]
        fn chunked_check_agrees_with_the_rule(
            lines in prop::collection::vec(line(), 0..14),
            crlf in any::<bool>(),
        ) {
            let text = lines.join(if crlf { "\r\n" } else { "\n" });
            let rule = first_bad_index(&text).is_ok();
            for size in [0, 1, 5, 16, 1 << 20] {
                prop_assert_eq!(chunked(&text, size), rule, "size {}: {:?}", size, text);
            }
            prop_assert_eq!(check_element_indices(&text).is_ok(), rule);
        }
    }

    /// The generator above gives both outcomes often, so the agreement test means
    /// something.
    #[test]
    fn sample_files_are_both_valid_and_invalid() {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;
        let mut runner = TestRunner::deterministic();
        let strategy = prop::collection::vec(line(), 0..14);
        let valid = (0..400)
            .filter(|_| {
                let text = strategy.new_tree(&mut runner).unwrap().current().join("\n");
                first_bad_index(&text).is_ok()
            })
            .count();
        assert!((60..340).contains(&valid), "{valid} of 400 valid");
    }
}
