//! Sharding a suite over several machines (`--shard INDEX/COUNT`): the sorted scene
//! list is dealt out in turn, so every machine takes a fixed, disjoint share and the
//! shares together cover the suite.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One share of a suite split over `count` machines: `--shard INDEX/COUNT`, INDEX
/// counted from 1 (Kubernetes' `JOB_COMPLETION_INDEX` + 1, a GitHub Actions matrix
/// value).
///
/// The share is fixed by the scene list alone: the scenes, sorted by path
/// ([`super::find_scenes`]), are dealt out in turn, so the scene at position k
/// (0-based) belongs to shard `k mod count + 1`. Every machine that sees the same
/// checkout takes the same share, the shares never overlap, together they hold every
/// scene, and their sizes differ by at most one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// This share, 1..=count.
    pub index: u32,
    /// How many shares the suite is split into, ≥ 1.
    pub count: u32,
}

impl Shard {
    /// Whether the scene at `position` of the sorted list belongs to this share.
    pub fn takes(&self, position: usize) -> bool {
        position % self.count as usize == (self.index - 1) as usize
    }

    /// This share of `scenes` (sorted), in order.
    pub fn select<T: Clone>(&self, scenes: &[T]) -> Vec<T> {
        scenes
            .iter()
            .enumerate()
            .filter(|(k, _)| self.takes(*k))
            .map(|(_, s)| s.clone())
            .collect()
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with 1 ≤ I ≤ N.
    fn from_str(text: &str) -> Result<Self, String> {
        let bad = |why: &str| format!("'{text}' is not a shard I/N ({why})");
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| bad("expected I/N, e.g. 2/4"))?;
        let index: u32 = i
            .trim()
            .parse()
            .map_err(|_| bad("I is not a whole number"))?;
        let count: u32 = n
            .trim()
            .parse()
            .map_err(|_| bad("N is not a whole number"))?;
        if count == 0 {
            return Err(bad("N must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(bad("I counts from 1 to N"));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_dealt_in_turn_and_cover_everything_once() {
        let scenes: Vec<u32> = (0..10).collect();
        let shards: Vec<Vec<u32>> = (1..=3)
            .map(|i| Shard { index: i, count: 3 }.select(&scenes))
            .collect();
        assert_eq!(shards, [vec![0, 3, 6, 9], vec![1, 4, 7], vec![2, 5, 8]]);
        assert_eq!(Shard { index: 1, count: 1 }.select(&scenes), scenes);
        assert!(
            Shard {
                index: 5,
                count: 12
            }
            .select(&scenes[..3])
            .is_empty()
        );
    }

    #[test]
    fn parsing_checks_the_range() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(Shard { index: 2, count: 3 }.to_string(), "2/3");
        assert_eq!(
            "0/3".parse::<Shard>().unwrap_err(),
            "'0/3' is not a shard I/N (I counts from 1 to N)"
        );
        assert_eq!(
            "4/3".parse::<Shard>().unwrap_err(),
            "'4/3' is not a shard I/N (I counts from 1 to N)"
        );
        assert_eq!(
            "1/0".parse::<Shard>().unwrap_err(),
            "'1/0' is not a shard I/N (N must be at least 1)"
        );
        assert_eq!(
            "3".parse::<Shard>().unwrap_err(),
            "'3' is not a shard I/N (expected I/N, e.g. 2/4)"
        );
        assert_eq!(
            "a/3".parse::<Shard>().unwrap_err(),
            "'a/3' is not a shard I/N (I is not a whole number)"
        );
    }
}
