//! The IF/ELSE/ENDIF skip stack of the scalar interpreter (docs/csir.md "IF semantics";
//! docs/csir-original.md B §4): one entry per open IF, holding whether its current branch
//! is skipped and whether the whole IF sits inside a skipped branch.

use super::Fault;

/// State of one open IF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    /// The enclosing branch is skipped: both branches of this IF are skipped.
    ParentSkipped,
    /// In the THEN branch; `skip` when the condition was false.
    Then { skip: bool },
    /// In the ELSE branch; `skip` when the condition was true.
    Else { skip: bool },
}

/// The stack of open IFs, bounded by the shader's IF depth. It allocates once, in
/// [`Branches::new`].
#[derive(Clone, Debug)]
pub(crate) struct Branches {
    frames: Vec<Frame>,
    depth: usize,
}

impl Branches {
    /// An empty stack for at most `depth` open IFs.
    pub(crate) fn new(depth: usize) -> Self {
        Branches {
            frames: Vec::with_capacity(depth),
            depth,
        }
    }

    /// Close every IF (start of an invocation).
    pub(crate) fn clear(&mut self) {
        self.frames.clear();
    }

    /// The current instruction is inside a skipped branch.
    #[inline]
    pub(crate) fn skipping(&self) -> bool {
        match self.frames.last() {
            None => false,
            Some(Frame::ParentSkipped) => true,
            Some(Frame::Then { skip } | Frame::Else { skip }) => *skip,
        }
    }

    /// Open an IF. `condition` is evaluated only when the IF is reached in a running
    /// branch; returns `Some(taken)` then, `None` inside a skipped branch.
    ///
    /// Errors: [`Fault::IfDepth`] beyond the depth limit, or the condition's own fault.
    pub(crate) fn open(
        &mut self,
        condition: impl FnOnce() -> Result<bool, Fault>,
    ) -> Result<Option<bool>, Fault> {
        if self.frames.len() >= self.depth {
            return Err(Fault::IfDepth(self.depth));
        }
        let (frame, taken) = if self.skipping() {
            (Frame::ParentSkipped, None)
        } else {
            let taken = condition()?;
            (Frame::Then { skip: !taken }, Some(taken))
        };
        self.frames.push(frame);
        Ok(taken)
    }

    /// Switch the innermost IF to its ELSE branch; returns `Some(else_runs)` when the
    /// IF itself is in a running branch, `None` otherwise.
    ///
    /// Errors: [`Fault::Unbalanced`] with no open IF or after a first ELSE.
    pub(crate) fn flip(&mut self) -> Result<Option<bool>, Fault> {
        let frame = self.frames.last_mut().ok_or(Fault::Unbalanced)?;
        match *frame {
            Frame::ParentSkipped => Ok(None),
            Frame::Then { skip } => {
                *frame = Frame::Else { skip: !skip };
                Ok(Some(skip))
            }
            Frame::Else { .. } => Err(Fault::Unbalanced),
        }
    }

    /// Close the innermost IF.
    ///
    /// Errors: [`Fault::Unbalanced`] with no open IF.
    pub(crate) fn close(&mut self) -> Result<(), Fault> {
        self.frames.pop().map(|_| ()).ok_or(Fault::Unbalanced)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_false_branches_stay_skipped() {
        let mut b = Branches::new(4);
        assert_eq!(b.open(|| Ok(false)), Ok(Some(false)));
        assert!(b.skipping());
        // Inside a skipped branch the inner condition is never evaluated.
        assert_eq!(b.open(|| panic!("evaluated")), Ok(None));
        assert_eq!(b.flip(), Ok(None));
        assert!(b.skipping());
        assert_eq!(b.close(), Ok(()));
        assert_eq!(b.flip(), Ok(Some(true)));
        assert!(!b.skipping());
        assert_eq!(b.flip(), Err(Fault::Unbalanced));
        assert_eq!(b.close(), Ok(()));
        assert_eq!(b.close(), Err(Fault::Unbalanced));
    }

    #[test]
    fn depth_is_bounded() {
        let mut b = Branches::new(2);
        b.open(|| Ok(true)).unwrap();
        b.open(|| Ok(true)).unwrap();
        assert_eq!(b.open(|| Ok(true)), Err(Fault::IfDepth(2)));
    }
}
