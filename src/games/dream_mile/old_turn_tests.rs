//! The turn on fixed arrays against the turn as it was on `Vec`s (issue 21): the old
//! adjudication and turn, kept here verbatim in substance, must give the same JSON (events,
//! field, history) on many seeded random fields and races; and states stored by the old
//! code decode unchanged.

use serde::Serialize;
use serde_json::{Value, json};

use super::*;

/// The code before the fixed arrays, with its `Vec` types.
mod old {
    use serde::Serialize;

    use super::super::adjudicate::margin_needed;
    use super::super::{Play, TurnRecord};
    use crate::engine::Seat;

    #[derive(Serialize)]
    pub struct TieBreak {
        pub group: Vec<Seat>,
        pub into: Vec<Vec<Seat>>,
    }

    #[derive(Serialize)]
    pub struct Overtake {
        pub by: Vec<Seat>,
        pub passed: Vec<Vec<Seat>>,
    }

    #[derive(Serialize)]
    pub struct Adjudication {
        pub tie_breaks: Vec<TieBreak>,
        pub overtakes: Vec<Overtake>,
        pub field: Vec<Vec<Seat>>,
    }

    pub fn adjudicate(
        field: &[Vec<Seat>],
        speed: impl Fn(Seat) -> u32,
        ties_only: bool,
    ) -> Adjudication {
        let mut tie_breaks = Vec::new();
        let mut units: Vec<Vec<Seat>> = Vec::new();
        for group in field {
            let mut members = group.clone();
            members.sort_by_key(|&s| (std::cmp::Reverse(speed(s)), s));
            let mut parts: Vec<Vec<Seat>> = Vec::new();
            for s in members {
                match parts.last_mut() {
                    Some(last) if last.first().map(|&f| speed(f)) == Some(speed(s)) => {
                        last.push(s);
                    }
                    _ => parts.push(vec![s]),
                }
            }
            if parts.len() > 1 {
                let mut sorted = group.clone();
                sorted.sort();
                tie_breaks.push(TieBreak {
                    group: sorted,
                    into: parts.clone(),
                });
            }
            units.extend(parts);
        }
        if ties_only {
            return Adjudication {
                tie_breaks,
                overtakes: Vec::new(),
                field: units,
            };
        }
        let unit_speed: Vec<i64> = units
            .iter()
            .map(|u| u.first().map(|&s| i64::from(speed(s))).unwrap_or(0))
            .collect();
        let mut order: Vec<usize> = (0..units.len()).collect();
        let mut overtaken = vec![false; units.len()];
        let mut overtakes = Vec::new();
        for id in (0..units.len()).rev() {
            if overtaken[id] {
                continue;
            }
            let Some(mut pos) = order.iter().position(|&u| u == id) else {
                continue;
            };
            let mut passed_so_far = 0usize;
            let mut passed = Vec::new();
            while pos > 0 {
                let ahead = order[pos - 1];
                let m = units[ahead].len();
                if unit_speed[id] - unit_speed[ahead] < margin_needed(passed_so_far, m) {
                    break;
                }
                order.swap(pos - 1, pos);
                pos -= 1;
                passed_so_far += m;
                overtaken[ahead] = true;
                passed.push(units[ahead].clone());
            }
            if !passed.is_empty() {
                overtakes.push(Overtake {
                    by: units[id].clone(),
                    passed,
                });
            }
        }
        Adjudication {
            tie_breaks,
            overtakes,
            field: order.into_iter().map(|u| units[u].clone()).collect(),
        }
    }

    #[derive(Serialize)]
    #[serde(tag = "type", rename_all = "kebab-case")]
    pub enum Event {
        TurnResolved {
            turn: u8,
            plays: Vec<Play>,
            tie_breaks: Vec<TieBreak>,
            overtakes: Vec<Overtake>,
            field: Vec<Vec<Seat>>,
        },
    }

    /// The old state's turn-relevant part: `(max_speed, remaining, last_played)` per seat.
    pub struct Race {
        pub runners: Vec<(u8, u32, Option<u8>)>,
        pub field: Vec<Vec<Seat>>,
        pub turns_done: u8,
        pub history: Vec<TurnRecord>,
    }

    impl Race {
        fn rank_of(&self, seat: Seat) -> u32 {
            let mut ahead = 0u32;
            for group in &self.field {
                if group.contains(&seat) {
                    return ahead + 1;
                }
                ahead += group.len() as u32;
            }
            ahead + 1
        }

        pub fn cap(&self, i: usize) -> u8 {
            let (max, remaining, _) = self.runners[i];
            u32::from(max).min(remaining) as u8
        }

        /// The old `apply`'s defaults and checks: a missed order plays one more than last
        /// turn; an order above the cap is dropped (and so defaulted).
        pub fn speeds(&self, orders: &[Option<(u8, bool)>]) -> (Vec<u8>, Vec<bool>) {
            let n = self.runners.len();
            let mut speeds: Vec<u8> = (0..n)
                .map(|i| {
                    let last = self.runners[i].2.unwrap_or(0);
                    last.saturating_add(1).min(self.cap(i))
                })
                .collect();
            let mut missed = vec![true; n];
            for (i, o) in orders.iter().enumerate() {
                if let Some((v, m)) = *o
                    && v <= self.cap(i)
                {
                    speeds[i] = v;
                    missed[i] = m;
                }
            }
            (speeds, missed)
        }

        pub fn resolve(&mut self, speeds: &[u8], missed: &[bool], automatic: bool) -> Event {
            let turn = self.turns_done + 1;
            let a = adjudicate(&self.field, |s| u32::from(speeds[s.index()]), turn == 1);
            let mut plays = Vec::new();
            for (i, runner) in self.runners.iter_mut().enumerate() {
                runner.1 = runner.1.saturating_sub(u32::from(speeds[i]));
                runner.2 = Some(speeds[i]);
                plays.push(Play {
                    seat: Seat(i as u8),
                    speed: speeds[i],
                    missed: missed[i],
                    automatic,
                });
            }
            self.field = a.field.clone();
            self.turns_done = turn;
            let n = self.runners.len();
            self.history.push(TurnRecord {
                turn,
                ranks: (0..n).map(|i| self.rank_of(Seat(i as u8))).collect(),
                remaining: self.runners.iter().map(|r| r.1).collect(),
                played: speeds.to_vec(),
                missed: missed.to_vec(),
            });
            Event::TurnResolved {
                turn,
                plays,
                tie_breaks: a.tie_breaks,
                overtakes: a.overtakes,
                field: a.field,
            }
        }
    }
}

fn to_json(v: &impl Serialize) -> Value {
    serde_json::to_value(v).unwrap()
}

/// A random field of `n` runners: the seats shuffled and cut into groups.
fn random_field(rng: &mut GameRng, n: usize) -> Vec<Vec<Seat>> {
    let mut seats: Vec<Seat> = Seat::all(n).collect();
    for i in (1..n).rev() {
        seats.swap(i, rng.index(i + 1));
    }
    let mut field: Vec<Vec<Seat>> = Vec::new();
    for s in seats {
        match field.last_mut() {
            Some(last) if rng.below(3) == 0 => last.push(s),
            _ => field.push(vec![s]),
        }
    }
    field
}

#[test]
fn the_adjudication_matches_the_old_one_on_random_fields() {
    let mut rng = GameRng::seeded(21);
    for _ in 0..20_000 {
        let n = 2 + rng.index(MAX_RUNNERS - 1);
        let field = random_field(&mut rng, n);
        let top = 1 + rng.below(16);
        let speeds: Vec<u32> = (0..n).map(|_| rng.below(top)).collect();
        let ties_only = rng.below(6) == 0;
        let old = old::adjudicate(&field, |s| speeds[s.index()], ties_only);
        let groups: Groups = serde_json::from_value(to_json(&field)).unwrap();
        let new = adjudicate(&groups, |s| speeds[s.index()], ties_only);
        assert_eq!(
            to_json(&new),
            to_json(&old),
            "field {field:?}, speeds {speeds:?}"
        );
    }
}

#[test]
fn whole_races_match_the_old_turn() {
    let mut rng = GameRng::seeded(15);
    for race in 0..1_000u64 {
        let n = 2 + rng.index(MAX_RUNNERS - 1);
        let seats: Vec<SeatSetup> = (0..n)
            .map(|i| SeatSetup {
                name: format!("R{i}"),
                choice: Some(format!("max {}", 10 + rng.below(6))),
            })
            .collect();
        let mut game = DreamMile::setup(&Options::default(), &seats, Seed::from_u64(race)).unwrap();
        let mut old = old::Race {
            runners: game
                .runners()
                .iter()
                .map(|r| (r.max_speed, r.remaining, None))
                .collect(),
            field: vec![Seat::all(n).collect()],
            turns_done: 0,
            history: Vec::new(),
        };
        while !game.pending().is_empty() {
            // Random speeds (some above the cap, so refused), some orders missing.
            let orders: Vec<Option<(u8, bool)>> = (0..n)
                .map(|i| match rng.below(8) {
                    0 => None,
                    1 => Some((old.cap(i).saturating_add(1), false)),
                    k => Some((rng.below(u32::from(old.cap(i)) + 1) as u8, k == 2)),
                })
                .collect();
            let submitted: Vec<Submitted<Speed>> = orders
                .iter()
                .enumerate()
                .filter_map(|(i, o)| {
                    o.map(|(v, m)| Submitted {
                        seat: Seat(i as u8),
                        order: Speed(v),
                        missed: m,
                    })
                })
                .collect();
            let events = game.apply(&submitted);
            let (speeds, missed) = old.speeds(&orders);
            let mut expected = vec![to_json(&old.resolve(&speeds, &missed, false))];
            if old.turns_done == 7 {
                let caps: Vec<u8> = (0..n).map(|i| old.cap(i)).collect();
                expected.push(to_json(&old.resolve(&caps, &vec![false; n], true)));
                let mut winners = old.field[0].clone();
                winners.sort();
                expected.push(json!({"type": "finished", "winners": winners}));
            }
            assert_eq!(to_json(&events), Value::Array(expected), "race {race}");
            // Stored events read back as the same events.
            let back: Vec<Event> = serde_json::from_value(to_json(&events)).unwrap();
            assert_eq!(back, events, "race {race}");
            let state = to_json(&game);
            assert_eq!(state["field"], to_json(&old.field), "race {race}");
            assert_eq!(state["history"], to_json(&old.history), "race {race}");
            let remaining: Vec<u32> = game.runners().iter().map(|r| r.remaining).collect();
            let old_remaining: Vec<u32> = old.runners.iter().map(|r| r.1).collect();
            assert_eq!(remaining, old_remaining);
            assert_eq!(game.public_view().history, old.history);
        }
    }
}

/// A state as the old code stored it (two runners after one turn, a history record from
/// before `played` and `missed` were kept) decodes, plays on, and encodes as it did.
#[test]
fn old_rows_decode_unchanged() {
    let fresh = DreamMile::setup(
        &Options::default(),
        &[SeatSetup::named("Ann"), SeatSetup::named("Bob")],
        Seed::from_u64(3),
    )
    .unwrap();
    let mut row = to_json(&fresh);
    row["field"] = json!([[1], [0]]);
    row["turns_done"] = json!(1);
    row["runners"][0]["remaining"] = json!(42);
    row["runners"][0]["last_played"] = json!(3);
    row["runners"][1]["remaining"] = json!(40);
    row["runners"][1]["last_played"] = json!(5);
    row["history"] = json!([{"turn": 1, "ranks": [2, 1], "remaining": [42, 40]}]);
    let mut game: DreamMile = serde_json::from_value(row.clone()).unwrap();
    assert_eq!(game.field().to_vecs(), vec![vec![Seat(1)], vec![Seat(0)]]);
    let mut expected = row.clone();
    expected["history"][0]["played"] = json!([]);
    expected["history"][0]["missed"] = json!([]);
    assert_eq!(to_json(&game), expected);
    game.apply(&[
        Submitted::new(Seat(0), Speed(9)),
        Submitted::new(Seat(1), Speed(2)),
    ]);
    let after = to_json(&game);
    assert_eq!(after["field"], json!([[0], [1]]));
    assert_eq!(
        after["history"][1],
        json!({"turn": 2, "ranks": [1, 2], "remaining": [33, 38], "played": [9, 2], "missed": [false, false]})
    );
    // More runners than a race may have is refused, not truncated.
    let mut big = row;
    big["field"] = json!([(0..13).collect::<Vec<u8>>()]);
    assert!(serde_json::from_value::<DreamMile>(big).is_err());
}
