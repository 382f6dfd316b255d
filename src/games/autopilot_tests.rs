//! The autopilot property: over thousands of seeded games of every game, every order that
//! `auto` plays without asking is legal, and is either the only legal order, or meets the
//! game's documented obvious rule (docs/rules/<game>.md), or the seat's standing plays
//! (the card races' `standing` rules, checked here from their definitions).

use super::card_race::cards::Kind as CardKind;
use super::card_race::{Card, CardRace, Order as CardOrder, Phase as CardPhase, StandingRule};
use super::dream_mile::Speed;
use super::magical_athlete::Order as MaOrder;
use super::magical_athlete::decide::{Question, TurnChoice};
use super::magical_athlete::racers::Kind as MaKind;
use super::magical_athlete::track::Track;
use super::{AnyGame, AnyOrder, GameKind};
use crate::engine::{Autoplay, BotLevel, GameRng, Seat, SeatSetup, Seed, Submitted};

/// Checks one autopilot order against the rule it claims; returns why not.
fn check(game: &AnyGame, seat: Seat, order: &AnyOrder, why: Autoplay) -> Result<(), String> {
    game.validate(seat, order).map_err(|e| e.to_string())?;
    let prompt = game.prompt(seat);
    let text = game.format_order(seat, order);
    match why {
        Autoplay::Forced => {
            let mut legal: Vec<AnyOrder> = Vec::new();
            for c in &prompt.choices {
                let o = game.read_order(seat, &c.order).map_err(|e| e.to_string())?;
                if !legal.contains(&o) {
                    legal.push(o);
                }
            }
            if !prompt.complete || legal.as_slice() != [order.clone()] {
                return Err(format!("`{text}` is not the only legal order: {legal:?}"));
            }
            Ok(())
        }
        Autoplay::Obvious => match (game, order) {
            // The last turn, ordered by the players: everything left, up to the maximum.
            (AnyGame::DreamMile(g), AnyOrder::DreamMile(Speed(v))) => {
                let last = g.turns_done() + 1 == g.options().total_turns();
                (last && *v == g.cap(seat))
                    .then_some(())
                    .ok_or(format!("{v} is not the last turn's full speed"))
            }
            // An immunity that ends a problem in force on the team, on the seat's turn.
            (AnyGame::CardRace(g), AnyOrder::CardRace(CardOrder::Play { card, target })) => {
                let turn = matches!(g.phase(), CardPhase::Turn { seat: s } if *s == seat);
                let fixes = g
                    .team_of(seat)
                    .is_some_and(|t| card.protects().iter().any(|&p| t.has(p)));
                (turn && card.is_safety() && fixes && target.is_none())
                    .then_some(())
                    .ok_or(format!(
                        "`{text}` is not an immunity for a problem in force"
                    ))
            }
            (AnyGame::MagicalAthlete(g), AnyOrder::MagicalAthlete(o)) => ma_obvious(g, o)
                .then_some(())
                .ok_or(format!("`{text}` meets no obvious rule of Magical Athlete")),
            _ => Err(format!(
                "`{text}` claims an obvious rule the game does not have"
            )),
        },
        Autoplay::Standing => match (game, order) {
            (AnyGame::CardRace(g), AnyOrder::CardRace(o)) => standing_holds(g, seat, o),
            (AnyGame::MagicalAthlete(g), AnyOrder::MagicalAthlete(o)) => {
                ma_default_policy(g, seat, o)
            }
            _ => Err(format!(
                "`{text}` claims standing plays the game does not have"
            )),
        },
    }
}

/// The first of the seat's standing plays that applies, checked from each rule's
/// definition (docs/rules/1000-miles.md, *Standing plays*), is the one that played `o`.
fn standing_holds(g: &CardRace, seat: Seat, o: &CardOrder) -> Result<(), String> {
    if !matches!(g.phase(), CardPhase::Turn { seat: s } if *s == seat) {
        return Err("standing plays decided something other than the seat's turn".into());
    }
    let team = g.team_of(seat).ok_or("no team")?;
    let legal = g.turn_orders(seat);
    let plays: Vec<(Card, Option<u8>)> = legal
        .iter()
        .filter_map(|o| match *o {
            CardOrder::Play { card, target } => Some((card, target)),
            _ => None,
        })
        .collect();
    let only_safeties = plays.iter().all(|(c, _)| c.is_safety());
    let rules = g.standing(seat);
    let Some(rule) = rules.rules().iter().copied().find(|&r| {
        // The rule that claims the play: the first whose definition the order meets.
        meets(g, seat, r, o, &plays, only_safeties)
    }) else {
        return Err(format!("{o:?} meets none of {:?}", rules.rules()));
    };
    // No rule before it applied (it would have decided first).
    for &earlier in rules.rules().iter().take_while(|&&r| r != rule) {
        let applies = match earlier {
            StandingRule::Finish => plays.iter().any(|(c, _)| {
                c.distance()
                    .is_some_and(|v| !team.counterflow() && team.distance + v == g.target())
            }),
            StandingRule::Distance => {
                !team.counterflow() && plays.iter().any(|(c, _)| c.distance().is_some())
            }
            StandingRule::Safety => plays.iter().any(|(c, _)| c.is_safety()),
            StandingRule::Remedy => {
                !team.rolling()
                    && plays.iter().any(|(c, _)| {
                        c.kind() == CardKind::Go
                            || c.fixes()
                                .is_some_and(|p| p.is_battle_attack() && team.has(p))
                    })
            }
            // Attack and the junk rules may apply and still not decide (a tie, no dead
            // card): they are checked by what they play.
            _ => false,
        };
        if applies {
            return Err(format!("{earlier:?} applied before {rule:?} played {o:?}"));
        }
    }
    Ok(())
}

fn meets(
    g: &CardRace,
    seat: Seat,
    rule: StandingRule,
    o: &CardOrder,
    plays: &[(Card, Option<u8>)],
    only_safeties: bool,
) -> bool {
    let Some(team) = g.team_of(seat) else {
        return false;
    };
    let own = g.team_index(seat);
    match (rule, *o) {
        (StandingRule::Finish, CardOrder::Play { card, .. }) => card
            .distance()
            .is_some_and(|v| team.distance + v == g.target()),
        (StandingRule::Remedy, CardOrder::Play { card, .. }) => {
            (!team.rolling()
                && (card == Card::Go
                    || card
                        .fixes()
                        .is_some_and(|p| p.is_battle_attack() && team.has(p))))
                || (team.counterflow() && card == Card::EndOfCounterflow)
        }
        (
            StandingRule::Attack,
            CardOrder::Play {
                card,
                target: Some(t),
            },
        ) => {
            let best = g
                .teams()
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != usize::from(own))
                .map(|(_, x)| x.distance)
                .max()
                .unwrap_or(0);
            card.is_attack() && t != own && g.team(t).is_some_and(|x| x.distance == best)
        }
        (StandingRule::Distance, CardOrder::Play { card, .. }) => {
            let largest = plays.iter().filter_map(|(c, _)| c.distance()).max();
            card.distance().is_some() && card.distance() == largest
        }
        (StandingRule::Safety, CardOrder::Play { card, .. }) => card.is_safety(),
        (StandingRule::KeepSafety | StandingRule::Junk, CardOrder::Junk { card }) => {
            only_safeties && !card.is_safety()
        }
        _ => false,
    }
}

/// Plays `games` seeded games of `kind`; at every step every pending seat's autopilot
/// order is checked, and half the time played (so states that `auto` leads to are seen).
fn property(kind: GameKind, options: &str, players: &[usize], games: u64) -> (u64, u64) {
    let options = kind.apply_options(None, options).unwrap();
    let (mut forced, mut obvious) = (0u64, 0u64);
    let mut standing = 0u64;
    for i in 0..games {
        let n = players[(i as usize) % players.len()];
        let seats: Vec<SeatSetup> = (0..n).map(|s| SeatSetup::named(format!("P{s}"))).collect();
        let mut game = kind.setup(&options, &seats, Seed::from_u64(i)).unwrap();
        if matches!(game, AnyGame::CardRace(_)) {
            // Every rule, in several orders; some seats keep the default set.
            const SETS: [&str; 5] = [
                "standing default",
                "standing safety, distance, attack, junk",
                "standing remedy, junk, keep-safety",
                "standing attack, finish, distance",
                "standing none",
            ];
            for s in 0..n {
                let text = SETS[(s + i as usize) % SETS.len()];
                let seat = Seat::from_index(s).unwrap();
                game.set_preference(seat, text).unwrap();
            }
        }
        let mut rng = GameRng::seeded(i);
        for _ in 0..20_000 {
            let pending = game.pending();
            if pending.is_empty() {
                break;
            }
            let mut orders = Vec::new();
            for &seat in &pending.seats {
                let level = if (seat.index() + i as usize).is_multiple_of(2) {
                    BotLevel::Heuristic
                } else {
                    BotLevel::Random
                };
                let mut order = game.bot_order(seat, level, &mut rng);
                if let Some((auto, why)) = game.autopilot(seat) {
                    if let Err(e) = check(&game, seat, &auto, why) {
                        panic!("{kind:?} game {i}, {seat}: {e}");
                    }
                    match why {
                        Autoplay::Forced => forced += 1,
                        Autoplay::Obvious => obvious += 1,
                        Autoplay::Standing => standing += 1,
                    }
                    if rng.chance(1, 2) {
                        order = auto;
                    }
                }
                orders.push(Submitted::new(seat, order));
            }
            game.apply(&orders);
        }
        assert!(game.outcome().is_some(), "{kind:?} game {i} did not end");
    }
    if !matches!(
        kind,
        GameKind::MilleBornes | GameKind::ThousandYards | GameKind::MagicalAthlete
    ) {
        assert_eq!(standing, 0, "{kind:?} has no standing plays");
    }
    (forced, obvious + standing)
}

#[test]
fn dream_mile_autopilot_plays_only_forced_or_the_last_turn() {
    let (forced, _) = property(GameKind::DreamMile, "", &[2, 5, 8], 1500);
    assert!(forced > 0);
    let (_, obvious) = property(
        GameKind::DreamMile,
        "auto-final-turn=no ordered-turns=8",
        &[3, 6],
        500,
    );
    assert!(obvious > 0);
}

#[test]
fn card_race_autopilot_plays_only_forced_or_an_immunity_for_a_problem() {
    let (f1, o1) = property(
        GameKind::MilleBornes,
        "rounds=1 target-score=0",
        &[2, 3, 4, 6],
        1500,
    );
    let (f2, o2) = property(GameKind::ThousandYards, "", &[2, 4, 6], 1000);
    assert!(f1 + f2 > 0 && o1 + o2 > 0, "{f1} {o1} {f2} {o2}");
}

#[test]
fn fifteen_hundred_autopilot_plays_only_forced_orders() {
    property(GameKind::FifteenHundred, "", &[2, 4, 6, 8], 1000);
}

#[test]
fn magical_athlete_autopilot_plays_only_forced_or_obvious_orders() {
    let (forced, obvious) = property(GameKind::MagicalAthlete, "", &[2, 3, 4, 5, 6], 1000);
    assert!(forced > 0 && obvious > 0, "{forced} {obvious}");
    property(
        GameKind::MagicalAthlete,
        "races=1 auto-roll=no",
        &[2, 4, 6],
        500,
    );
}

/// Magical Athlete's obvious rules, restated from docs/rules/magical-athlete.md.
fn ma_obvious(g: &super::magical_athlete::MagicalAthlete, o: &MaOrder) -> bool {
    let (Some(w), Some(race)) = (g.waiting(), g.race()) else {
        return false;
    };
    let Some(me) = w.question.racer().and_then(|r| race.racers.get(r)) else {
        return false;
    };
    let pos = |r: usize| race.racers.get(r).map_or(0, |x| x.pos);
    let mild = race.track == Track::Mild;
    let plain = mild && me.pos + 13 < 30;
    let power = w.question.racer().and_then(|r| race.power(r));
    match (&w.question, o) {
        (Question::Turn { choices, .. }, MaOrder::Guess(n)) => {
            choices.contains(&TurnChoice::Guess(*n))
        }
        (Question::Turn { choices, .. }, MaOrder::Roll) => {
            choices.iter().all(|c| match *c {
                TurnChoice::Roll => true,
                TurnChoice::Flip(r) | TurnChoice::Hypnotize(r) => pos(r) <= me.pos,
                _ => false,
            }) && choices.len() > 1
        }
        (Question::Reroll { roll: 6, .. }, MaOrder::No) => plain && power != Some(MaKind::Sisyphus),
        (Question::Reroll { roll: 1, .. }, MaOrder::Yes) => {
            plain && power != Some(MaKind::Alchemist)
        }
        (Question::Transmute { .. }, MaOrder::Yes) => plain,
        (Question::Ride { to, .. }, MaOrder::No) => mild && *to <= me.pos,
        _ => false,
    }
}

/// Magical Athlete under `auto`: a power that asks every turn, about which the seat set no
/// policy and did not ask to be asked, answered by the topic's documented default policy.
fn ma_default_policy(
    g: &super::magical_athlete::MagicalAthlete,
    seat: Seat,
    o: &MaOrder,
) -> Result<(), String> {
    use super::magical_athlete::decide::Topic;
    let every_turn = [
        Topic::Magician,
        Topic::Dicemonger,
        Topic::Rocket,
        Topic::Alchemist,
        Topic::Genius,
        Topic::Legs,
        Topic::FlipFlop,
        Topic::Hypnotist,
        Topic::ThirdWheel,
        Topic::Cheerleader,
        Topic::Suckerfish,
        Topic::Duelist,
    ];
    let (w, race) = g.waiting().zip(g.race()).ok_or("no question")?;
    let topic = w.question.topic().ok_or("a question without a topic")?;
    if !g.options().auto_policies || !every_turn.contains(&topic) {
        return Err(format!("{topic:?} is not answered by a default policy"));
    }
    let player = g.players().get(seat.index()).ok_or("no player")?;
    if player.asked.contains(&topic) || player.policies.iter().any(|p| p.topic() == topic) {
        return Err(format!("the seat chose its own {topic:?} answer"));
    }
    let want = race.policy_answer(&w.question, None);
    // The seat has no policy on the topic, so its default order is the default policy's.
    let default = crate::engine::Game::default_order(g, seat);
    (w.question.allows(&want) && *o == default)
        .then_some(())
        .ok_or(format!(
            "{o:?} is not the default policy's answer {want:?} ({default:?})"
        ))
}
