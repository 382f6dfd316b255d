//! The 1000 miles pictures: casts, signs, the ruler and the car, and odd views.

use super::geometry::{BAR, ruler_x, score};
use super::lane::{GROOVE, Sign, round_part, signs, tick_step};
use super::*;
use crate::engine::{Game, SeatSetup, Seed};
use crate::games::card_race::{Card, CardRace, Options, SafetyPlay};

fn game(names: &[&str], options: &str) -> CardRace {
    let seats: Vec<SeatSetup> = names.iter().map(|n| SeatSetup::named(*n)).collect();
    let mut o = Options::default();
    for kv in options.split_whitespace() {
        let (k, v) = kv.split_once('=').unwrap();
        match k {
            "teams" => o.teams = v.parse().unwrap(),
            "rounds" => o.rounds = v.parse().unwrap(),
            _ => panic!("{k}"),
        }
    }
    CardRace::setup(&o, &seats, Seed::from_u64(3)).unwrap()
}

fn rgb_at(p: &Picture, x: f32, y: f32) -> [u8; 3] {
    let i = (y as usize * p.width() as usize + x as usize) * 3;
    let rgb = p.rgb();
    [rgb[i], rgb[i + 1], rgb[i + 2]]
}

#[test]
fn teams_take_their_first_players_colour_and_initials() {
    let g = game(&["Alice", "Bob", "Carol", "Dave"], "");
    let view = g.public_view();
    let c = casts(fonts().unwrap(), &view);
    assert_eq!(c.teams.len(), 2);
    assert_eq!(c.teams.label(0), "AC");
    assert_eq!(c.teams.label(1), "BD");
    assert_eq!(c.teams.name(0), "Alice & Carol");
    assert_eq!(c.teams.style(0), seat_style(0));
    assert_eq!(c.teams.style(1), seat_style(1));
    // Alone at the table, a player's team is labelled as the player.
    let g = game(&["Alice", "Bob", "Carol"], "");
    let c = casts(fonts().unwrap(), &g.public_view());
    assert_eq!(c.teams.label(2), "CAR");
    // Initials that clash fall back to team numbers.
    let g = game(&["Alice", "Andy", "Bob", "Bea"], "");
    let c = casts(fonts().unwrap(), &g.public_view());
    assert_eq!((c.teams.label(0), c.teams.label(1)), ("T1", "T2"));
}

#[test]
fn signs_say_what_stops_a_car() {
    let g = game(&["Alice", "Bob"], "");
    let mut t = g.public_view().teams[0].clone();
    assert_eq!(
        signs(false, &t),
        [(Sign::Stop, "needs a green light".to_string())]
    );
    assert_eq!(signs(true, &t)[0].1, "needs a go");
    t.problems = vec![Card::Flat, Card::Limit];
    t.limited = true;
    assert_eq!(
        signs(false, &t),
        [
            (Sign::Hazard, "flat tire".to_string()),
            (Sign::Limit, "speed limit".to_string())
        ]
    );
    t.problems = vec![Card::Stop];
    assert_eq!(signs(true, &t)[0], (Sign::Stop, "traffic".to_string()));
    t.rolling = true;
    t.problems.clear();
    t.limited = false;
    t.counterflow = true;
    assert_eq!(
        signs(false, &t),
        [
            (Sign::Rolling, "rolling".to_string()),
            (Sign::Counterflow, "counterflow".to_string())
        ]
    );
}

#[test]
fn the_ruler_runs_from_nothing_to_the_trip() {
    let g = game(&["Alice", "Bob"], "");
    let view = g.public_view();
    let l = layout(&view);
    assert_eq!(ruler_x(&l, 0, 1000), l.ruler_left);
    assert_eq!(ruler_x(&l, 1000, 1000), l.ruler_right);
    assert_eq!(ruler_x(&l, 5000, 1000), l.ruler_right);
    assert!((ruler_x(&l, 500, 1000) - (l.ruler_left + l.ruler_right) / 2.0).abs() < 0.01);
    assert_eq!(ruler_x(&l, 5, 0), l.ruler_left);
    assert_eq!(tick_step(1000), 100);
    assert_eq!(tick_step(700), 100);
    assert_eq!(tick_step(300), 50);
    assert_eq!(tick_step(0), 25);
    assert_eq!(tick_step(u32::MAX), u32::MAX.div_ceil(10));
    assert_eq!(l.lanes.len(), 2);
    assert!(l.lanes[0].1 + l.lanes[0].3 < l.lanes[1].1);
}

#[test]
fn the_car_sits_at_its_distance_in_its_colour() {
    let g = game(&["Alice", "Bob"], "");
    let mut view = g.public_view();
    view.teams[1].distance = 450;
    let l = layout(&view);
    let p = track(&view).unwrap();
    let orange = seat_style(1).fill;
    let x = ruler_x(&l, 450, view.target);
    let bar_y = l.lanes[1].1 + BAR;
    // Above the car's label, inside the token.
    assert_eq!(rgb_at(&p, x, bar_y - 14.0), [orange.0, orange.1, orange.2]);
    // The groove is filled up to the car, and empty after it.
    let before = rgb_at(&p, x - 60.0, bar_y);
    let after = rgb_at(&p, x + 60.0, bar_y);
    assert_eq!(before, [orange.0, orange.1, orange.2]);
    assert_eq!(after, [GROOVE.0, GROOVE.1, GROOVE.2]);
}

#[test]
fn a_changed_tableau_changes_the_picture() {
    let g = game(&["Alice", "Bob", "Carol", "Dave"], "");
    let view = g.public_view();
    let base = track(&view).unwrap().rgb();
    let mut immune = view.clone();
    immune.teams[0].safeties.push(SafetyPlay {
        card: Card::ExtraTank,
        dirty_trick: true,
    });
    let mut limited = view.clone();
    limited.teams[1].limited = true;
    limited.teams[1].problems.push(Card::Limit);
    for other in [immune, limited] {
        let drawn = track(&other).unwrap().rgb();
        let changed = base
            .chunks(3)
            .zip(drawn.chunks(3))
            .filter(|(a, b)| a != b)
            .count();
        assert!(changed > 100, "{changed}");
    }
}

#[test]
fn finished_scores_are_not_counted_twice() {
    let g = game(&["Alice", "Bob"], "");
    let mut view = g.public_view();
    view.teams[0].total = 1200;
    view.teams[0].round_score = 700;
    assert_eq!(score(&view, &view.teams[0]), 1900);
    view.finished = true;
    assert_eq!(score(&view, &view.teams[0]), 1200);
}

/// The lane shows one score in a one-round game (1500 before the round's bonuses beside
/// 2100 with them disagreed), and this round's part only while several are played.
#[test]
fn one_round_shows_one_score() {
    let mut view = game(&["Alice", "Bob"], "rounds=1").public_view();
    view.teams[0].round_score = 1500;
    view.teams[0].total = 600;
    assert_eq!(round_part(&view, &view.teams[0]), None);
    view.finished = true;
    view.teams[0].total = 2100;
    assert_eq!(round_part(&view, &view.teams[0]), None);
    assert_eq!(score(&view, &view.teams[0]), 2100);
    view.finished = false;
    view.rounds = 0;
    assert_eq!(
        round_part(&view, &view.teams[0]).as_deref(),
        Some("this round 1500 · ")
    );
}

/// A one-round game is won on score, bonuses and all: the chart's last column ranks by it
/// (it said "1st" of the team with more yards, which lost 675 to 850).
#[test]
fn a_one_round_chart_ends_ranked_by_score() {
    use crate::games::card_race::TurnMark;
    let mut view = game(&["Alice", "Bot 1"], "rounds=1").public_view();
    view.turns = vec![
        TurnMark {
            turn: 1,
            distances: vec![100, 200],
        },
        TurnMark {
            turn: 2,
            distances: vec![600, 675],
        },
    ];
    view.teams[0].distance = 600;
    view.teams[1].distance = 675;
    view.teams[0].total = 850;
    view.teams[1].total = 675;
    let unfinished = chart_columns(&view);
    assert_eq!(
        unfinished.len(),
        2,
        "no score column while the round is played"
    );
    view.finished = true;
    let columns = chart_columns(&view);
    let last = columns.last().unwrap();
    assert_eq!(last.head, "score");
    let order: Vec<(usize, u32, Option<&str>)> = last
        .entries
        .iter()
        .map(|e| (e.who, e.rank, e.figure.as_deref()))
        .collect();
    assert_eq!(order, [(0, 1, Some("850")), (1, 2, Some("675"))]);
    assert!(race_chart(&view).is_ok());
}

#[test]
fn ranks_share_ties() {
    assert_eq!(ranks(&[300u32, 500, 300, 0]), [2, 1, 2, 4]);
    assert_eq!(ranks::<u32>(&[]), Vec::<u32>::new());
}

#[test]
fn odd_views_draw_without_panicking() {
    let g = game(&["Alice", "Bob", "Carol"], "");
    let mut view = g.public_view();
    view.teams[0].members.clear();
    view.teams[1].members.push(Seat(40));
    view.teams[2].distance = 99_999;
    view.target = 0;
    let mut huge = view.clone();
    huge.target = u32::MAX;
    track(&huge).unwrap();
    view.players[0].name = "🏁🏁".into();
    view.players[1].name = "A very long name that goes on and on and on and on".into();
    view.teams[2].safeties = Card::SAFETIES
        .iter()
        .map(|&card| SafetyPlay {
            card,
            dirty_trick: true,
        })
        .collect();
    view.teams[2].problems = vec![Card::Stop, Card::Flat, Card::Accident, Card::OutOfGas];
    view.teams[2].rolling = false;
    view.teams[2].limited = true;
    view.teams[2].counterflow = true;
    track(&view).unwrap().png().unwrap();
    race_chart(&view).unwrap().png().unwrap();
    view.turns.push(crate::games::card_race::TurnMark {
        turn: 1,
        distances: vec![5; 1000],
    });
    race_chart(&view).unwrap();
    view.teams.clear();
    assert_eq!(track(&view).err(), Some(RenderError::NoRunners));
}
