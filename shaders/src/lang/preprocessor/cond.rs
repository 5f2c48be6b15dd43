//! Conditional groups: `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`, `#endif` (C99
//! §6.10.1), nested. A group whose parent is compiled out is compiled out whatever its
//! condition, and its `#elif` conditions are not evaluated.

use super::super::token::Pos;
use super::Preprocessor;

/// One open `#if` group.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cond {
    /// Lines are compiled here.
    active: bool,
    /// The enclosing group is active (else nothing here ever is).
    parent: bool,
    /// A branch of this group was already taken.
    taken: bool,
    /// `#else` was seen.
    seen_else: bool,
    /// Where the group's `#if` is.
    pos: Pos,
}

impl Preprocessor {
    /// Whether lines are being compiled (every enclosing group active).
    pub fn active(&self) -> bool {
        self.conds.last().is_none_or(|c| c.active)
    }

    /// `#if` / `#ifdef` / `#ifndef` with its outcome.
    pub fn open(&mut self, cond: bool, pos: Pos) {
        let parent = self.active();
        self.conds.push(Cond {
            active: parent && cond,
            parent,
            taken: cond,
            seen_else: false,
            pos,
        });
    }

    /// Whether an `#elif` condition needs evaluating (the group is open, its parent
    /// active and no branch taken yet).
    pub fn elif_pending(&self) -> bool {
        self.conds
            .last()
            .is_some_and(|c| c.parent && !c.taken && !c.seen_else)
    }

    /// `#elif` with its outcome (only meaningful when [`Self::elif_pending`]).
    ///
    /// Errors: "#elif without #if", "#elif after #else" (C99 §6.10.1: `#else` is the
    /// last branch of a group).
    pub fn elif(&mut self, cond: bool) -> Result<(), &'static str> {
        let c = self.conds.last_mut().ok_or("#elif without #if")?;
        if c.seen_else {
            return Err("#elif after #else (C99 §6.10.1: #else is the last branch of a group)");
        }
        c.active = c.parent && !c.taken && cond;
        c.taken |= cond;
        Ok(())
    }

    /// `#else`.
    ///
    /// Errors: "#else without #if", "#else after #else".
    pub fn else_branch(&mut self) -> Result<(), &'static str> {
        let c = self.conds.last_mut().ok_or("#else without #if")?;
        if c.seen_else {
            return Err("#else after #else");
        }
        c.seen_else = true;
        c.active = c.parent && !c.taken;
        c.taken = true;
        Ok(())
    }

    /// `#endif`.
    ///
    /// Errors: "#endif without #if".
    pub fn endif(&mut self) -> Result<(), &'static str> {
        self.conds.pop().map(|_| ()).ok_or("#endif without #if")
    }

    /// The `#if` of a group still open at the end of the source.
    pub fn unterminated(&self) -> Option<Pos> {
        self.conds.last().map(|c| c.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditionals_nest() {
        let mut pp = Preprocessor::default();
        pp.open(false, Pos::START);
        assert!(!pp.active());
        pp.open(true, Pos::START);
        assert!(!pp.active(), "inside an inactive group");
        pp.endif().unwrap();
        assert!(pp.elif_pending());
        pp.elif(true).unwrap();
        assert!(pp.active());
        pp.else_branch().unwrap();
        assert!(!pp.active(), "#else after a taken #elif");
        assert_eq!(pp.else_branch(), Err("#else after #else"));
        assert!(pp.elif(true).unwrap_err().starts_with("#elif after #else"));
        pp.endif().unwrap();
        assert_eq!(pp.endif(), Err("#endif without #if"));
        assert!(pp.active() && pp.unterminated().is_none());
    }
}
