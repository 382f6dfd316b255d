//! The game around the races: the draft, secret picks, turn order and scoring.

use super::*;

// ----- The game -----

#[test]
fn four_players_draft_four_racers_each_and_race_four_times() {
    let (g, events) = play_defaults(&Options::default(), 4, 7);
    let outcome = g.outcome().expect("the game ends");
    for p in g.players() {
        assert_eq!(p.hand.len(), 4);
        assert_eq!(p.used.len(), 4);
    }
    let races: Vec<(u8, Track)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Revealed { race, track, .. } => Some((*race, *track)),
            _ => None,
        })
        .collect();
    assert_eq!(
        races,
        vec![
            (1, Track::Mild),
            (2, Track::Wild),
            (3, Track::Mild),
            (4, Track::Wild)
        ]
    );
    // Gold 3/4/4/5 and silver 1/2/2/3 are all handed out (or a silver discarded).
    let golds: u8 = g.players().iter().flat_map(|p| p.gold.iter()).sum();
    assert_eq!(golds, 16);
    let total: i64 = g.players().iter().map(Player::score).sum();
    let placings = outcome.placings.len();
    assert_eq!(placings, 4);
    assert!(total >= 16);
}

#[test]
fn two_players_draft_eight_and_race_two_racers_each() {
    let (g, events) = play_defaults(&Options::default(), 2, 3);
    assert!(g.outcome().is_some());
    for p in g.players() {
        assert_eq!(p.hand.len(), 8);
        assert_eq!(p.used.len(), 8);
    }
    let picks = events
        .iter()
        .find_map(|e| match e {
            Event::Revealed { picks, .. } => Some(picks.clone()),
            _ => None,
        })
        .unwrap();
    assert!(picks.iter().all(|(_, ks)| ks.len() == 2));
}

#[test]
fn three_player_double_racers() {
    let options = Options {
        double: true,
        ..Options::default()
    };
    assert_eq!(MagicalAthlete::seat_limits(&options), (3, 3));
    let (g, _) = play_defaults(&options, 3, 11);
    assert!(g.outcome().is_some());
    for p in g.players() {
        assert_eq!(p.hand.len(), 8);
        assert_eq!(p.used.len(), 8);
    }
}

#[test]
fn race_picks_are_secret_until_everyone_has_picked() {
    let mut g = MagicalAthlete::setup(&Options::default(), &seats(3), Seed::from_u64(2)).unwrap();
    while matches!(g.phase(), Phase::Draft(_)) {
        let s = g.pending().seats[0];
        let o = g.default_order(s);
        g.apply(&[Submitted::new(s, o)]);
    }
    let p = g.pending();
    assert_eq!(p.seats.len(), 3);
    let hand = g.players()[0].hand.clone();
    let text = format!("race {}", hand[1].slug());
    let o = read_order(&g, Seat(0), &text).unwrap();
    let e = read_order(
        &g,
        Seat(0),
        &format!("race {}", g.players()[1].hand[0].slug()),
    )
    .unwrap_err();
    assert!(e.to_string().contains("isn't in your hand"), "{e}");
    let events = g.apply(&[Submitted::new(Seat(0), o)]);
    let picks = events
        .iter()
        .find_map(|e| match e {
            Event::Revealed { picks, .. } => Some(picks.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(picks[0], (Seat(0), vec![hand[1]]));
    assert!(g.players()[0].used.contains(&hand[1]));
}

#[test]
fn the_racer_farthest_behind_goes_first_next_race() {
    let (g, events) = play_defaults(&Options::default(), 4, 21);
    assert!(g.outcome().is_some());
    // Every race after the first names a first player; each one must be a player whose
    // racer was farthest behind, or won a roll-off among those.
    let firsts = events
        .iter()
        .filter(|e| matches!(e, Event::Revealed { .. }))
        .count();
    assert_eq!(firsts, 4);
}

#[test]
fn final_scores_tie_as_a_tie() {
    let scores = [(Seat(0), 9), (Seat(1), 9), (Seat(2), 4)];
    let o = Outcome::from_scores(&scores);
    assert_eq!(o.winners(), vec![Seat(0), Seat(1)]);
}

#[test]
fn options_read_and_check() {
    use crate::engine::apply_option_text;
    let o = apply_option_text(&Options::default(), "track=wild wild-layout=rulebook").unwrap();
    assert!(MagicalAthlete::check_options(&o).is_ok());
    assert_eq!(o.track_of(3), Track::WildRulebook);
    let o = apply_option_text(&Options::default(), "track=mild,wild").unwrap();
    assert!(MagicalAthlete::check_options(&o).is_err());
    let o = apply_option_text(&Options::default(), "track=moon").unwrap();
    assert!(MagicalAthlete::check_options(&o).is_err());
    assert_eq!(Options::default().track_of(2), Track::Wild);
}

#[test]
fn one_race_drafts_one_round_and_ends_after_the_race() {
    use crate::engine::apply_option_text;
    let o = apply_option_text(&Options::default(), "races=1").unwrap();
    assert!(MagicalAthlete::check_options(&o).is_ok());
    assert!(Options::default().auto_roll, "auto-roll is on by default");
    for bad in ["races=2", "races=0"] {
        let b = apply_option_text(&Options::default(), bad).unwrap();
        assert!(MagicalAthlete::check_options(&b).is_err(), "{bad}");
    }
    for (players, hand) in [(2, 4), (4, 2), (6, 2)] {
        let (g, _) = play_defaults(&o, players, 3);
        assert!(g.outcome().is_some(), "{players} players: the game ends");
        assert_eq!(g.season.len(), 1, "one race");
        for p in g.players() {
            assert_eq!(p.hand.len(), hand, "{players} players");
        }
    }
}

#[test]
fn events_the_first_release_recorded_are_read_in_today_s_form() {
    let tied = Event::RollOff {
        purpose: "who goes first in race 1".into(),
        rolls: vec![(Seat(0), 3), (Seat(1), 3)],
        winner: Some(Seat(0)),
    };
    let Event::RollOff { winner, .. } = MagicalAthlete::upgrade_event(tied) else {
        panic!("still a roll-off");
    };
    assert_eq!(winner, None, "a tied roll-off names no winner");
    let won = Event::RollOff {
        purpose: "p".into(),
        rolls: vec![(Seat(0), 2), (Seat(1), 5)],
        winner: Some(Seat(1)),
    };
    assert_eq!(MagicalAthlete::upgrade_event(won.clone()), won);
    let old: Event = serde_json::from_value(serde_json::json!({"type": "race", "event": {
        "type": "decided", "racer": {"kind": "heckler", "seat": 1},
        "question": "the turn", "answer": "roll", "how": "default"}}))
    .unwrap();
    let today = serde_json::to_value(MagicalAthlete::upgrade_event(old)).unwrap();
    assert_eq!(today["event"]["question"], "roll, or use its power");
}
