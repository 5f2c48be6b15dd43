//! An OBJ file's lines, read a chunk at a time: the numbers of its `v`, `vt` and `vn`
//! lines and the raw corners of its `f` lines, with nothing resolved yet, so that the
//! chunks can be read on different threads (`super::parse_obj` resolves the indices,
//! which need the counts of every earlier chunk, in file order).

use std::num::IntErrorKind;

/// Cuts `text` into pieces of about `size` bytes, each ending just after a `\n` (the
/// last one at the end of the text), so every piece holds whole lines.
pub(super) fn line_chunks(text: &str, size: usize) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut chunks = Vec::with_capacity(text.len() / size.max(1) + 1);
    let mut start = 0;
    while start < bytes.len() {
        let from = (start + size).min(bytes.len());
        let end = match bytes[from..].iter().position(|&b| b == b'\n') {
            Some(at) => from + at + 1,
            None => bytes.len(),
        };
        // A cut after `\n` (ASCII) always falls on a character boundary.
        chunks.push(&text[start..end]);
        start = end;
    }
    chunks
}

/// The lines of `text`, ended by `\n`, `\r\n` or a lone `\r` (a final line without an
/// end counts too; an empty text has none).
pub(super) fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let line = &rest[..end];
        let next = if rest[end..].starts_with("\r\n") {
            end + 2
        } else {
            (end + 1).min(rest.len())
        };
        rest = &rest[next..];
        Some(line)
    })
}

/// Kinds of vertex data, in the order of a corner's `v/vt/vn` parts.
pub(super) const KINDS: [&str; 3] = ["vertex", "texture coordinate", "normal"];

/// One corner of a face as written: its `v`, `vt` and `vn` indices (0 = not given;
/// a written 0 is refused while reading), not yet resolved.
pub(super) type RawCorner = [i64; 3];

/// One `f` line of a chunk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct RawFace {
    /// Line number within the chunk, from 0.
    pub line: u32,
    /// Its corners: `corners[first .. first + count]` of the chunk.
    pub first: u32,
    pub count: u32,
    /// `v`, `vt` and `vn` lines of the chunk before this line.
    pub before: [u32; 3],
}

/// What one chunk holds, read without looking at any other chunk.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Chunk {
    /// Lines in the chunk.
    pub lines: u32,
    /// `v` positions (3 floats each), `vt` coordinates (2 each) and `vn` normals (3 each).
    pub positions: Vec<f32>,
    pub texcoords: Vec<f32>,
    pub normals: Vec<f32>,
    pub faces: Vec<RawFace>,
    pub corners: Vec<RawCorner>,
    /// The first line that cannot be read: line number within the chunk and message.
    pub error: Option<(u32, String)>,
}

/// Why a line stopped the reading of its chunk.
enum Stop {
    /// The line is not valid: the message.
    Invalid(String),
    /// The triangles and numbers read so far are more than the budget allows.
    OverBudget,
}

impl From<String> for Stop {
    fn from(message: String) -> Self {
        Stop::Invalid(message)
    }
}

/// Corners read between two calls of the budget inside one face.
const CORNERS_PER_CHECK: usize = 4096;

/// `v`, `vt` and `vn` lines read between two calls of the budget.
const DATA_LINES_PER_CHECK: u64 = 4096;

/// A chunk's reading state toward its budget: the numbers already told of.
struct Reader<'a> {
    spend: &'a dyn Fn(u64, u64) -> bool,
    floats_told: u64,
    data_lines: u64,
}

impl Reader<'_> {
    /// Tells the budget of `triangles` more triangles and the numbers `chunk` holds
    /// that it has not been told of; whether the budget holds them.
    fn tell(&mut self, chunk: &Chunk, triangles: u64) -> bool {
        let floats = chunk.floats();
        let new = floats - self.floats_told;
        self.floats_told = floats;
        (self.spend)(triangles, new)
    }
}

impl Chunk {
    /// Reads every line of `text` (whole lines; see [`super::parse_obj`] for the
    /// rules), stopping at the first one that cannot be read. `spend(triangles,
    /// floats)` is told of every `triangles` more triangles the faces make and `floats`
    /// more numbers the `v`, `vt` and `vn` lines hold (at the end of each face, every
    /// [`CORNERS_PER_CHECK`] corners within a long one, every [`DATA_LINES_PER_CHECK`]
    /// data lines, and at the chunk's end) and answers whether the budget still holds
    /// them; when it does not, reading stops there (the budget's owner knows: what
    /// `spend` was told is over).
    pub fn read(text: &str, spend: &dyn Fn(u64, u64) -> bool) -> Chunk {
        let mut chunk = Chunk::default();
        let mut reader = Reader {
            spend,
            floats_told: 0,
            data_lines: 0,
        };
        for (number, line) in lines(text).enumerate() {
            chunk.lines += 1;
            match chunk.line(number as u32, line, &mut reader) {
                Ok(()) => {}
                Err(Stop::Invalid(message)) => {
                    chunk.error = Some((number as u32, message));
                    break;
                }
                Err(Stop::OverBudget) => return chunk,
            }
        }
        let _ = reader.tell(&chunk, 0);
        chunk
    }

    /// The `v`, `vt` and `vn` lines read so far.
    pub fn counts(&self) -> [u32; 3] {
        [
            self.positions.len() / 3,
            self.texcoords.len() / 2,
            self.normals.len() / 3,
        ]
        .map(|n| n as u32)
    }

    /// Numbers held by the chunk's `v`, `vt` and `vn` lines.
    fn floats(&self) -> u64 {
        (self.positions.len() + self.texcoords.len() + self.normals.len()) as u64
    }

    /// Reads line `number` of the chunk.
    fn line(&mut self, number: u32, line: &str, reader: &mut Reader<'_>) -> Result<(), Stop> {
        let line = line.split('#').next().unwrap_or_default();
        let mut words = line.split_whitespace();
        let word = words.next();
        if matches!(word, Some("v" | "vt" | "vn")) {
            reader.data_lines += 1;
            if reader.data_lines.is_multiple_of(DATA_LINES_PER_CHECK) && !reader.tell(self, 0) {
                return Err(Stop::OverBudget);
            }
        }
        match word {
            Some("v") => Ok(numbers(
                &mut self.positions,
                words,
                3,
                3,
                "a vertex position",
            )?),
            Some("vt") => Ok(numbers(
                &mut self.texcoords,
                words,
                1,
                2,
                "a texture coordinate",
            )?),
            Some("vn") => Ok(numbers(&mut self.normals, words, 3, 3, "a normal")?),
            Some("f") => self.face(number, words, reader),
            _ => Ok(()),
        }
    }

    /// An `f` line: at least 3 corners, each `v`, `v/vt`, `v//vn` or `v/vt/vn`.
    fn face<'a>(
        &mut self,
        line: u32,
        words: impl Iterator<Item = &'a str>,
        reader: &mut Reader<'_>,
    ) -> Result<(), Stop> {
        let first = self.corners.len() as u32;
        // Triangles spent so far for this face: one per corner from the third on.
        let mut spent = 0;
        for (k, word) in words.enumerate() {
            self.corners.push(corner(word)?);
            if (k + 1) % CORNERS_PER_CHECK == 0 {
                let made = (k as u64).saturating_sub(1);
                if !reader.tell(self, made - spent) {
                    return Err(Stop::OverBudget);
                }
                spent = made;
            }
        }
        let count = self.corners.len() as u32 - first;
        if count < 3 {
            return Err(format!("a face needs at least 3 corners, this one has {count}").into());
        }
        if !reader.tell(self, u64::from(count - 2) - spent) {
            return Err(Stop::OverBudget);
        }
        self.faces.push(RawFace {
            line,
            first,
            count,
            before: self.counts(),
        });
        Ok(())
    }
}

/// Appends the first `want` numbers of `words` to `out`, `need` of them required and
/// the rest 0 when absent; further words are ignored (a `v` line's `w` or colour, a
/// `vt` line's `w`).
fn numbers<'a>(
    out: &mut Vec<f32>,
    mut words: impl Iterator<Item = &'a str>,
    need: usize,
    want: usize,
    what: &str,
) -> Result<(), String> {
    for k in 0..want {
        let value = match words.next() {
            Some(word) => {
                let value = word
                    .parse::<f32>()
                    .map_err(|_| format!("{what}: {} is not a number", Quoted(word)))?;
                if value.is_infinite() && !word.to_ascii_lowercase().contains("inf") {
                    return Err(format!(
                        "{what}: {} is too large for a 32-bit float",
                        Quoted(word)
                    ));
                }
                if !value.is_finite() {
                    return Err(format!("{what}: {} is not a finite number", Quoted(word)));
                }
                value
            }
            None if k >= need => 0.0,
            None => {
                let s = if need == 1 { "" } else { "s" };
                return Err(format!("{what} needs {need} number{s}, this one has {k}"));
            }
        };
        out.push(value);
    }
    Ok(())
}

/// One face corner, `v`, `v/vt`, `v//vn` or `v/vt/vn`, as written (0 for a part not
/// given).
fn corner(word: &str) -> Result<RawCorner, String> {
    let at = Quoted(word);
    let mut corner = [0; 3];
    let mut parts = word.split('/');
    for (kind, slot) in corner.iter_mut().enumerate() {
        let what = KINDS[kind];
        match parts.next() {
            Some("") if kind > 0 => {}
            Some("") => return Err(format!("face corner {at} has no vertex index")),
            Some(part) => {
                *slot = part.parse::<i64>().map_err(|e| match e.kind() {
                    IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                        format!(
                            "face corner {at}: {what} index {} is out of range",
                            Quoted(part)
                        )
                    }
                    _ => format!(
                        "face corner {at}: {what} index {} is not an integer",
                        Quoted(part)
                    ),
                })?;
                if *slot == 0 {
                    return Err(format!(
                        "face corner {at}: {what} index 0 (indices count from 1, or back from -1)"
                    ));
                }
            }
            None => {}
        }
    }
    if parts.next().is_some() {
        return Err(format!(
            "face corner {at} has more than three parts (v/vt/vn)"
        ));
    }
    Ok(corner)
}

/// A word of the file as an error message shows it: in single quotes, cut to its
/// first 40 characters (then `…`), control characters escaped (`\u{1b}`), so a
/// hostile line cannot flood or drive the terminal.
struct Quoted<'a>(&'a str);

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const SHOWN: usize = 40;
        f.write_str("'")?;
        for c in self.0.chars().take(SHOWN) {
            if c.is_control() {
                write!(f, "{}", c.escape_debug())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        if self.0.chars().nth(SHOWN).is_some() {
            f.write_str("…")?;
        }
        f.write_str("'")
    }
}
