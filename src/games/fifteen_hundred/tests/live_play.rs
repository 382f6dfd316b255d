//! Live play: each decision asked in turn, cards secret until the moves.

use super::*;

#[test]
fn live_play_asks_each_decision_in_turn_and_keeps_cards_secret_until_the_moves() {
    let mut g = live(&["A", "B", "C"]);
    assert_eq!(g.pending().seats.len(), 3);
    let e = refused(&g, "A", "card 9 bid 2 actions first");
    assert!(e.contains("only the movement card and bid"), "{e}");
    play(
        &mut g,
        &[
            ("A", "card 9 bid 2"),
            ("B", "card 10 bid 5"),
            ("C", "card 11 bid 1"),
        ],
    );
    assert_eq!(g.step(), Step::Action);
    assert_eq!(g.pending().seats, vec![seat(&g, "B")]);
    // Cards are not shown before the moves, except to their owner.
    assert!(g.public_view().runners.iter().all(|r| r.card.is_none()));
    assert_eq!(g.private_view(seat(&g, "B")).chosen_card, Some(10));
    play(&mut g, &[("B", "first")]);
    let e = refused(&g, "A", "action first");
    assert_eq!(e, "Move First has already been taken this round");
    play(&mut g, &[("A", "action move3")]);
    // C bid lowest: no choice for it; the moves begin with B (Move First).
    assert_eq!(g.step(), Step::Move);
    assert_eq!(g.pending().seats, vec![seat(&g, "B")]);
    assert!(g.public_view().runners.iter().all(|r| r.card.is_some()));
    let prompt = g.prompt(seat(&g, "B"));
    assert!(!prompt.choices.is_empty());
    let first = prompt.choices[0].order.clone();
    play(&mut g, &[("B", &first)]);
    while g.step() == Step::Move {
        let s = g.pending().seats[0];
        let o = read_order(&g, s, "move farthest").unwrap();
        g.apply(&[Submitted::new(s, o)]);
    }
    assert_eq!(g.step(), Step::Pace);
    let s = g.pending().seats[0];
    let o = read_order(&g, s, "pace +1 move farthest").unwrap();
    g.apply(&[Submitted::new(s, o)]);
    assert_eq!(g.runners()[s.index()].pace, 6);
}

/// Reading is apart from legality: text that reads well but answers another question
/// parses, and `validate` refuses it with the sentence players have always read.
#[test]
fn text_for_another_step_parses_and_is_refused_as_illegal() {
    let g = live(&["A", "B", "C"]);
    let a = seat(&g, "A");
    let order = g.parse_order(a, "card 9 bid 2 actions first").unwrap();
    assert_eq!(
        order,
        Order::NotAsked {
            misfit: Misfit::CardAndBidOnly
        }
    );
    assert_eq!(
        read_order(&g, a, "card 9 bid 2 actions first"),
        Err(OrderError::Illegal(
            "in live play only the movement card and bid are sent now; actions, pace and moves \
             are asked when your turn comes; Send your movement card and bid card, e.g. \
             `card 10 bid 3` (at 0 mental strength: just `card 10`)."
                .into()
        ))
    );
    // What cannot be read is still a syntax error.
    assert!(matches!(
        read_order(&g, a, "card ten"),
        Err(OrderError::Syntax(_))
    ));
}
