//! Words every game's narration and every rendering share: below both, so a game can tell
//! its events, and quote back what a player typed ([`bounded`]), without importing the
//! renderers; and the grammar of names in sentences ([`possessive`], [`agree`], [`count`]).

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

/// Whether a name is the terminal seat's "You", which takes "win", not "wins".
pub fn is_you(name: &str) -> bool {
    name == "You"
}

/// Names that are plural nouns, which take a bare apostrophe ("Legs' turn"); a singular
/// name ending in s keeps the house style's "'s" ("Genius's", "Chris's").
const PLURAL_NAMES: &[&str] = &["Legs"];

/// `name` owning something: "Ann's", "Your" (the terminal seat), "Ann's Legs'".
pub fn possessive(name: &str) -> String {
    let last = name.rsplit(' ').next().unwrap_or(name);
    if is_you(name) {
        "Your".into()
    } else if PLURAL_NAMES.contains(&last) {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// The verb `third` ("wins", "drafts", "has", "is") as `subject` takes it: "You win".
pub fn agree<'a>(subject: &str, third: &'a str) -> std::borrow::Cow<'a, str> {
    if !is_you(subject) {
        return third.into();
    }
    match third {
        "has" => "have".into(),
        "is" => "are".into(),
        "was" => "were".into(),
        "does" => "do".into(),
        "goes" => "go".into(),
        t => {
            // "passes" is "pass", but "loses" and "chooses" keep their e.
            let sibilant = ["sses", "shes", "ches", "xes", "zzes"]
                .iter()
                .any(|e| t.ends_with(e));
            let cut = if sibilant { 2 } else { 1 };
            match t.strip_suffix('s') {
                Some(_) => t.get(..t.len() - cut).unwrap_or(t).to_string().into(),
                None => t.into(),
            }
        }
    }
}

/// "1 point", "2 points", "-1 points" is "-1 point" too.
pub fn count(n: i64, one: &str) -> String {
    if n.unsigned_abs() == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {one}s")
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

    /// The terminal's seat is "You": "You win", "Your Twin", and names ending in s.
    #[test]
    fn you_and_names_agree() {
        assert_eq!(agree("You", "wins"), "win");
        assert_eq!(agree("You", "drafts"), "draft");
        assert_eq!(agree("You", "finishes"), "finish");
        assert_eq!(agree("You", "passes"), "pass");
        assert_eq!(agree("You", "loses"), "lose");
        assert_eq!(agree("You", "chooses"), "choose");
        assert_eq!(agree("You", "fixes"), "fix");
        assert_eq!(agree("You", "has"), "have");
        assert_eq!(agree("You", "is"), "are");
        assert_eq!(agree("Ann", "wins"), "wins");
        assert_eq!(possessive("You"), "Your");
        assert_eq!(possessive("Ann"), "Ann's");
        assert_eq!(possessive("Ann's Legs"), "Ann's Legs'");
        assert_eq!(possessive("Legs"), "Legs'");
        assert_eq!(possessive("Ann's Genius"), "Ann's Genius's");
        assert_eq!(count(1, "point"), "1 point");
        assert_eq!(count(0, "point"), "0 points");
        assert_eq!(count(-1, "point"), "-1 point");
        assert_eq!(count(7, "point"), "7 points");
    }

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
