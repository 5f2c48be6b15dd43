//! The one "did you mean" rule for a misspelt name: the closest candidate by
//! Damerau–Levenshtein distance (transpositions count as one edit), when it is within
//! a third of the candidate's length (at least 2 edits). Scene keys, state values and
//! shader interface names all suggest by it.

/// The candidate of `names` closest to `wrong` within the rule of the module docs (the
/// first of equally close ones in `names`' order of distance, then name), or `None`.
pub(crate) fn closest_name<'n>(
    wrong: &str,
    names: impl IntoIterator<Item = &'n str>,
) -> Option<&'n str> {
    names
        .into_iter()
        .map(|n| (strsim::damerau_levenshtein(wrong, n), n))
        .min()
        .filter(|(d, n)| *d <= (n.len() / 3).max(2))
        .map(|(_, n)| n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closest_name_within_a_third_of_its_length() {
        let names = ["uniforms", "indices", "state"];
        assert_eq!(closest_name("uniform", names), Some("uniforms"));
        assert_eq!(closest_name("indcies", names), Some("indices"));
        assert_eq!(closest_name("colour", names), None);
        assert_eq!(closest_name("x", std::iter::empty()), None);
    }
}
