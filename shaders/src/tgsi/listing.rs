//! An emitted shader before it becomes one string: the header lines and the
//! instructions, each remembering the CSIR record it came from. [`Listing::text`] is
//! what VirGL receives; the parity dump prints the same lines beside the CSIR.

use super::inst::Inst;
use std::fmt::Write;

/// One TGSI instruction and the index of the CSIR record that produced it (`None`
/// for the final `END`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Index into `Shader::ir`.
    pub ir_index: Option<usize>,
    /// The instruction.
    pub inst: Inst,
}

/// A complete TGSI shader: header lines (stage, properties, declarations,
/// immediates) and the instruction lines, the last of which is `END`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// `VERT`/`FRAG`, `PROPERTY`, `DCL` and `IMM` lines, in order.
    pub header: Vec<String>,
    /// Every instruction, `END` last.
    pub body: Vec<Line>,
}

impl Listing {
    /// The instruction lines as `tgsi_dump` prints them: the instruction number as
    /// `%3u: ` (a label the parser ignores), two spaces per open IF/ELSE level, the
    /// instruction.
    pub fn numbered(&self) -> impl Iterator<Item = (&Line, String)> + '_ {
        let mut depth = 0usize;
        self.body.iter().enumerate().map(move |(n, line)| {
            let (close, open) = line.inst.opcode.nesting();
            depth = depth.saturating_sub(close);
            let text = format!("{n:3}: {}{}", "  ".repeat(depth), line.inst);
            depth += open;
            (line, text)
        })
    }

    /// The shader text: header, numbered instructions, `END` last; every line ends in
    /// `\n` and nothing else (`\r` is not TGSI whitespace).
    pub fn text(&self) -> String {
        let mut out = String::new();
        for line in &self.header {
            out.push_str(line);
            out.push('\n');
        }
        for (_, text) in self.numbered() {
            let _ = writeln!(out, "{text}");
        }
        out
    }
}
