//! Words every game's narration and every rendering share: below both, so a game can tell
//! its events, and quote back what a player typed ([`bounded`]), without importing the
//! renderers.

/// 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st...
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// "A", "A and B", "A, B and C".
pub fn join_and<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => format!(
            "{} and {}",
            init.iter()
                .map(std::convert::AsRef::as_ref)
                .collect::<Vec<_>>()
                .join(", "),
            last.as_ref()
        ),
    }
}

/// Joins passed units where a unit may itself read "A and B":
/// "Frank, Dave and Emily, and Carol".
pub(crate) fn join_units(units: &[String]) -> String {
    let plain = units.iter().all(|u| !u.contains(" and "));
    match units {
        [] => String::new(),
        [one] => one.clone(),
        _ if plain => join_and(units),
        [init @ .., last] => format!("{}, and {last}", init.join(", ")),
    }
}

/// The most characters of what a player typed that a message shows back.
pub const TYPED_MAX: usize = 100;

/// `text` cut to [`TYPED_MAX`] characters, ending in "…" when it was cut.
pub fn bounded(text: &str) -> String {
    if text.chars().count() <= TYPED_MAX {
        return text.to_string();
    }
    let mut out: String = text.chars().take(TYPED_MAX).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 103]
            .iter()
            .map(|&n| ordinal(n))
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "103rd"
            ]
        );
    }
}
