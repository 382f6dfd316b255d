//! Autocomplete for `/race` options with a finite answer. The choices are built by pure
//! functions (tested here); the async wrappers only find the caller's race and seat.
//! Nothing of another seat's hand is offered: `/race order` completes from the caller's
//! own open prompt, and offers nothing when they owe no order.

use poise::serenity_prelude as serenity;

use super::super::Ctx;
use super::{race_here, user_of};
use crate::engine::Choice;

/// Discord's limits on an autocomplete answer: choices, and a choice's name and value.
pub const MAX_CHOICES: usize = 25;
pub const MAX_NAME: usize = 100;

/// The shown name of a prompt choice: its label, and its order text when that differs.
fn choice_name(c: &Choice) -> String {
    let label = c.label.trim();
    let name = if label.is_empty() || label == c.order {
        c.order.clone()
    } else {
        format!("{label} ({})", c.order)
    };
    super::super::layout::clip(&name, MAX_NAME)
}

/// The (name, value) pairs offered for `/race order text:` from a prompt's choices: those
/// whose label or order contains `partial` (any case), each once, at most 25. The value is
/// the order text, which the referee reads back.
pub fn order_choices(choices: &[Choice], partial: &str) -> Vec<(String, String)> {
    let p = partial.trim().to_lowercase();
    let mut seen = std::collections::HashSet::new();
    choices
        .iter()
        .filter(|c| c.order.chars().count() <= MAX_NAME)
        .filter(|c| c.order.to_lowercase().contains(&p) || c.label.to_lowercase().contains(&p))
        .filter(|c| seen.insert(c.order.clone()))
        .take(MAX_CHOICES)
        .map(|c| (choice_name(c), c.order.clone()))
        .collect()
}

/// The order a typed text stands for: a choice's label (or its shown name), typed back,
/// stands for that choice's order; any other text is the order as typed.
pub fn order_for_text(choices: &[Choice], text: &str) -> String {
    let t = text.trim();
    if choices.iter().any(|c| c.order == t) {
        return t.to_string();
    }
    let mut found = choices.iter().filter(|c| {
        c.label.trim().eq_ignore_ascii_case(t) || choice_name(c).eq_ignore_ascii_case(t)
    });
    match (found.next(), found.next()) {
        (Some(c), None) => c.order.clone(),
        // No label, or a label shared by two choices: the text as typed.
        _ => t.to_string(),
    }
}

fn response(pairs: Vec<(String, String)>) -> serenity::CreateAutocompleteResponse {
    pairs
        .into_iter()
        .take(MAX_CHOICES)
        .fold(serenity::CreateAutocompleteResponse::new(), |r, (n, v)| {
            r.add_string_choice(n, v)
        })
}

/// `/race order text:`: the caller's own legal orders, only while they owe one.
pub(super) async fn autocomplete_order(
    ctx: Ctx<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let Ok(race) = race_here(ctx).await else {
        return response(Vec::new());
    };
    match ctx.data().referee.open_prompt(race, &user_of(ctx)).await {
        Ok(open) => response(order_choices(&open.prompt.choices, partial)),
        Err(_) => response(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(order: &str, label: &str) -> Choice {
        Choice::new(order, label)
    }

    #[test]
    fn order_choices_filter_dedupe_and_cap() {
        let choices = vec![
            choice("3", "Move 3"),
            choice("3", "Move 3 again"),
            choice("boost", ""),
        ];
        let all = order_choices(&choices, "");
        assert_eq!(
            all,
            vec![
                ("Move 3 (3)".to_string(), "3".to_string()),
                ("boost".to_string(), "boost".to_string())
            ]
        );
        assert_eq!(order_choices(&choices, "BOO").len(), 1);
        let many: Vec<Choice> = (0..40).map(|i| choice(&i.to_string(), "")).collect();
        assert_eq!(order_choices(&many, "").len(), MAX_CHOICES);
        let long = vec![choice(&"x".repeat(101), ""), choice("y", &"L".repeat(300))];
        let offered = order_choices(&long, "");
        assert_eq!(offered.len(), 1);
        assert!(offered.iter().all(|(n, _)| n.chars().count() <= MAX_NAME));
    }

    #[test]
    fn a_label_typed_back_is_its_order() {
        let choices = vec![
            choice("p1", "Pace"),
            choice("k", "Kick"),
            choice("k2", "Kick"),
        ];
        assert_eq!(order_for_text(&choices, "pace"), "p1");
        assert_eq!(order_for_text(&choices, "Pace (p1)"), "p1");
        assert_eq!(order_for_text(&choices, "k"), "k");
        assert_eq!(order_for_text(&choices, "Kick"), "Kick");
        assert_eq!(order_for_text(&choices, "7"), "7");
    }
}
