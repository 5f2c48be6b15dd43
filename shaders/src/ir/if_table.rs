//! The IF/ELSE/ENDIF partners of a verified shader, matched once by the verifier
//! ([`verify`](super::verify) returns them in [`ShaderInfo`](super::ShaderInfo)) and
//! read by every consumer that needs them: the batch interpreter's decoder, the TGSI
//! initialisation analysis, the tracer and `run`'s input analysis.

use super::VerifyRule;

/// One IF with its optional ELSE and its ENDIF, as indices into `Shader::ir` (NOPs
/// included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IfBlock {
    /// The IF.
    pub if_at: usize,
    /// The ELSE, if the IF has one.
    pub else_at: Option<usize>,
    /// The ENDIF.
    pub endif_at: usize,
    /// How many IFs enclose this one (0 for an IF outside every other).
    pub depth: usize,
}

impl IfBlock {
    /// Where control goes when the THEN branch is not taken: the ELSE, or the ENDIF.
    pub fn else_or_endif(&self) -> usize {
        self.else_at.unwrap_or(self.endif_at)
    }

    /// Whether instruction `index` is strictly between the IF and its ENDIF (in either
    /// branch).
    pub fn encloses(&self, index: usize) -> bool {
        self.if_at < index && index < self.endif_at
    }
}

/// Marks an instruction that is not an IF, ELSE or ENDIF in [`IfTable::marker_of`].
const NONE: u32 = u32::MAX;

/// Every [`IfBlock`] of a shader, in the order of their IFs, and for every IF, ELSE
/// and ENDIF the block it belongs to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IfTable {
    blocks: Vec<IfBlock>,
    /// Per instruction: the index in `blocks` of the block whose IF, ELSE or ENDIF it
    /// is, or [`NONE`].
    marker_of: Vec<u32>,
}

impl IfTable {
    /// The blocks, in the order of their IFs (outer before inner).
    pub fn blocks(&self) -> &[IfBlock] {
        &self.blocks
    }

    /// The block whose IF, ELSE or ENDIF is instruction `index`; `None` for any other
    /// instruction.
    pub fn block_at(&self, index: usize) -> Option<&IfBlock> {
        let k = *self.marker_of.get(index)?;
        self.blocks.get(k as usize)
    }

    /// The position in [`IfTable::blocks`] of the block whose IF, ELSE or ENDIF is
    /// instruction `index`.
    pub fn block_index_at(&self, index: usize) -> Option<usize> {
        let k = *self.marker_of.get(index)?;
        (k != NONE).then_some(k as usize)
    }
}

/// Matches IF/ELSE/ENDIF while the verifier walks the instructions.
#[derive(Debug)]
pub(super) struct IfMatcher {
    table: IfTable,
    /// Open blocks, innermost last.
    open: Vec<u32>,
    depth_limit: usize,
}

impl IfMatcher {
    /// A matcher for `len` instructions allowing `depth_limit` open IFs.
    pub(super) fn new(len: usize, depth_limit: usize) -> Self {
        IfMatcher {
            table: IfTable {
                blocks: Vec::new(),
                marker_of: vec![NONE; len],
            },
            open: Vec::new(),
            depth_limit,
        }
    }

    /// An IF at `at`. Errors: `depth_limit` IFs already open.
    pub(super) fn open(&mut self, at: usize) -> Result<(), VerifyRule> {
        if self.open.len() >= self.depth_limit {
            return Err(VerifyRule::If);
        }
        let k = self.table.blocks.len() as u32;
        self.table.blocks.push(IfBlock {
            if_at: at,
            else_at: None,
            endif_at: at,
            depth: self.open.len(),
        });
        self.table.marker_of[at] = k;
        self.open.push(k);
        Ok(())
    }

    /// An ELSE at `at`. Errors: no open IF, or its ELSE was seen already.
    pub(super) fn flip(&mut self, at: usize) -> Result<(), VerifyRule> {
        let &k = self.open.last().ok_or(VerifyRule::Else)?;
        let block = &mut self.table.blocks[k as usize];
        if block.else_at.is_some() {
            return Err(VerifyRule::Else);
        }
        block.else_at = Some(at);
        self.table.marker_of[at] = k;
        Ok(())
    }

    /// An ENDIF at `at`. Errors: no open IF.
    pub(super) fn close(&mut self, at: usize) -> Result<(), VerifyRule> {
        let k = self.open.pop().ok_or(VerifyRule::EndIf)?;
        self.table.blocks[k as usize].endif_at = at;
        self.table.marker_of[at] = k;
        Ok(())
    }

    /// The table. Errors: an IF still open.
    pub(super) fn finish(self) -> Result<IfTable, VerifyRule> {
        if self.open.is_empty() {
            Ok(self.table)
        } else {
            Err(VerifyRule::Unbalanced)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_blocks_know_their_partners_and_depth() {
        // 0 IF, 1 IF, 2 ELSE, 3 ENDIF, 4 ELSE, 5 x, 6 ENDIF, 7 IF, 8 ENDIF
        let mut m = IfMatcher::new(9, 32);
        m.open(0).unwrap();
        m.open(1).unwrap();
        m.flip(2).unwrap();
        m.close(3).unwrap();
        m.flip(4).unwrap();
        m.close(6).unwrap();
        m.open(7).unwrap();
        m.close(8).unwrap();
        let t = m.finish().unwrap();
        let outer = IfBlock {
            if_at: 0,
            else_at: Some(4),
            endif_at: 6,
            depth: 0,
        };
        assert_eq!(t.blocks()[0], outer);
        assert_eq!(t.block_at(4), Some(&outer));
        assert_eq!(t.block_at(2).map(|b| (b.if_at, b.depth)), Some((1, 1)));
        assert_eq!(t.block_at(8).map(|b| b.else_or_endif()), Some(8));
        assert_eq!(t.block_at(5), None);
        assert_eq!(t.block_index_at(7), Some(2));
        assert!(outer.encloses(5) && !outer.encloses(6));
    }

    #[test]
    fn unbalanced_markers_break_the_verifiers_rules() {
        let mut m = IfMatcher::new(4, 1);
        assert_eq!(m.flip(0), Err(VerifyRule::Else));
        assert_eq!(m.close(0), Err(VerifyRule::EndIf));
        m.open(0).unwrap();
        assert_eq!(m.open(1), Err(VerifyRule::If));
        m.flip(1).unwrap();
        assert_eq!(m.flip(2), Err(VerifyRule::Else));
        assert_eq!(m.finish(), Err(VerifyRule::Unbalanced));
    }
}
