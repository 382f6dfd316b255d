//! Hostile order text for every game, from random points of random games: the parser and
//! the legality check never panic, and every refusal is a short sentence a player can read.
//! (`PROPTEST_CASES` raises the number of cases.)

use photofinish::engine::{BotLevel, GameRng, Mode, Seat, SeatSetup, Seed, Submitted};
use photofinish::games::{AnyGame, GameKind};
use proptest::prelude::*;

/// A game of `kind`, played by bots for `steps` steps from `seed`.
fn game_at(kind: GameKind, seed: u64, steps: usize) -> AnyGame {
    let (min, max) = kind.seat_limits(&kind.default_options()).unwrap_or((2, 2));
    let n = 4usize.clamp(min, max);
    let seats: Vec<SeatSetup> = (0..n).map(|i| SeatSetup::named(format!("P{i}"))).collect();
    let mut game = kind
        .setup(&kind.default_options(), &seats, Seed::from_u64(seed))
        .unwrap();
    let mut rng = GameRng::seeded(seed);
    for _ in 0..steps {
        if game.outcome().is_some() {
            break;
        }
        let pending = game.pending();
        let who: Vec<Seat> = match pending.mode {
            Mode::All => pending.seats.clone(),
            Mode::Any => pending.seats.first().copied().into_iter().collect(),
        };
        let orders: Vec<_> = who
            .into_iter()
            .map(|s| Submitted::new(s, game.bot_order(s, BotLevel::Random, &mut rng)))
            .collect();
        game.apply(&orders);
    }
    game
}

fn hostile_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[ -~]{0,40}",
        "(play|junk|card|bid|pace|move|roll|pick|draft|counter|decline|stop|@P1|#|-|\\+|[0-9]{1,25}| |,|=){0,12}",
        Just(String::new()),
        Just("\u{200B}\u{202E}7\u{0000}".to_string()),
        Just("9".repeat(400)),
        Just("<@123456789012345678> 5".to_string()),
        Just("@everyone".to_string()),
    ]
}

fn kinds() -> Vec<GameKind> {
    GameKind::all().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn no_order_text_panics_and_every_refusal_reads_well(
        k in 0usize..16,
        seed in 0u64..50,
        steps in 0usize..40,
        text in hostile_text(),
    ) {
        let kinds = kinds();
        let kind = kinds[k % kinds.len()];
        let game = game_at(kind, seed, steps);
        // The referee cleans every order's text before the game reads it.
        let text = photofinish::referee::clean_text(&text);
        let pending = game.pending();
        for seat in pending.seats.iter().copied().chain([Seat(0), Seat(9), Seat(200)]) {
            match game.read_order(seat, &text) {
                Ok(order) => {
                    // What is accepted validates and writes itself back.
                    prop_assert!(game.validate(seat, &order).is_ok());
                    let again = game.format_order(seat, &order);
                    prop_assert_eq!(game.read_order(seat, &again), Ok(order));
                }
                Err(e) => {
                    let msg = e.to_string();
                    prop_assert!(!msg.trim().is_empty(), "{kind}: an empty refusal");
                    prop_assert!(msg.chars().count() <= 800, "{kind}: a refusal of {} chars", msg.chars().count());
                    // What the player typed is echoed between backticks; the rest must be prose.
                    let prose: String = msg.split('`').step_by(2).collect();
                    prop_assert!(!prose.contains("Error(") && !prose.contains("Some(") && !prose.contains("{:"),
                        "{kind}: a refusal that reads like code: {msg}");
                }
            }
        }
    }

    #[test]
    fn options_text_never_panics(k in 0usize..16, text in hostile_text()) {
        let kinds = kinds();
        let kind = kinds[k % kinds.len()];
        if let Err(e) = kind.apply_options(None, &text) {
            prop_assert!(!e.to_string().trim().is_empty());
        }
        let _ = kind.check_seat_choice(&kind.default_options(), &text);
    }
}

#[test]
fn prompt_choices_of_every_game_read_back_at_many_points() {
    for kind in kinds() {
        for seed in 0..20u64 {
            for steps in [0, 3, 11, 29] {
                let game = game_at(kind, seed, steps);
                for seat in game.pending().seats {
                    for c in game.prompt(seat).choices {
                        assert!(
                            game.read_order(seat, &c.order).is_ok(),
                            "{kind} seed {seed}: {:?}",
                            c.order
                        );
                        assert!(
                            c.label.chars().count() <= 80,
                            "{kind}: a button label over 80 chars: {}",
                            c.label
                        );
                    }
                }
            }
        }
    }
}

fn time_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[ -~]{0,40}",
        "([0-9]{1,20}|\\.|:|-|,| |h|m|s|d|w|min|hours|and|tomorrow|today|fri|mon|<t:|>|T|\\+|Europe/London|UTC){0,10}",
        Just("9".repeat(400)),
        Just("1.5h 99999999999999999999d".to_string()),
        Just("<t:-99999999999999999>".to_string()),
        Just("<t:9223372036854775807:F>".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Durations, moments, zones, quiet hours, days and the race's time options: no panic,
    /// no duration past a year, and every refusal one short sentence.
    #[test]
    fn time_text_never_panics_and_refusals_read_well(text in time_text(), now in 0i64..4_000_000_000) {
        use photofinish::referee::when;
        let sentence = |msg: String| -> Result<(), TestCaseError> {
            prop_assert!(!msg.trim().is_empty());
            prop_assert!(!msg.contains('\n'), "{msg}");
            prop_assert!(msg.chars().count() <= 300, "{msg}");
            Ok(())
        };
        match when::parse_duration(&text) {
            Ok(secs) => prop_assert!(secs <= when::MAX_DURATION_SECS),
            Err(e) => sentence(e.to_string())?,
        }
        let now = chrono::DateTime::from_timestamp(now, 0).unwrap();
        let zone = match when::parse_zone(&text) {
            Ok(z) => z,
            Err(e) => {
                sentence(e.to_string())?;
                when::parse_zone("Australia/Sydney").unwrap()
            }
        };
        let _ = zone.describe(now);
        if let Err(e) = when::parse_when(&text, now, zone) {
            sentence(e.to_string())?;
        }
        if let Err(e) = when::parse_quiet(&text) {
            sentence(e.to_string())?;
        }
        if let Err(e) = when::parse_days(&text) {
            sentence(e.to_string())?;
        }
        match when::parse_clock(&text) {
            Ok(c) => {
                prop_assert!((10..=when::MAX_DURATION_SECS).contains(&c.bank_secs));
                prop_assert!(c.increment_secs <= when::MAX_DURATION_SECS);
            }
            Err(e) => sentence(e.to_string())?,
        }
        let mut timing = photofinish::vocab::Timing { turn_secs: 60, reminders: vec![], resolve_early: true, calendar: Default::default() };
        for key in ["turn", "reminders", "days", "quiet-cap", "nudge", "zone", "clock", "clock-cap"] {
            let before = timing.clone();
            if let Err(e) = photofinish::referee::timing::apply_timing_text(&mut timing, &format!("{key}={text}")) {
                sentence(e.to_string())?;
                prop_assert_eq!(&timing, &before, "a refusal changes nothing");
            }
        }
        // A clock and a cap together: the cap is never below the bank.
        if photofinish::referee::timing::apply_timing_text(&mut timing, &format!("clock={text} clock-cap={text}")).is_ok() {
            let c = &timing.calendar;
            if let (Some(bank), Some(cap)) = (c.clock_secs, c.clock_cap_secs) {
                prop_assert!(cap >= bank);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The calendar never panics, and a deadline (a turn's, or a bank's end) never comes
    /// before its nominal time nor after it by more than a week of days= plus the quiet cap.
    #[test]
    fn deadlines_on_the_calendar_stay_in_bounds(
        opened in -2_000_000_000i64..4_000_000_000,
        turn in 0u64..=31_536_000,
        days in 1u8..128,
        cap in 0u64..=604_800,
        quiet in proptest::collection::vec((0u32..1440, 1u32..840, 0usize..4), 0..4),
        zone in 0usize..4,
    ) {
        use photofinish::referee::calendar::{Rules, Sleeper, add_turn, deadline};
        use photofinish::referee::when::{Days, Quiet, parse_zone};
        let zones = ["Europe/London", "America/New_York", "Australia/Sydney", "+05:30"];
        let z = |i: usize| parse_zone(zones[i % zones.len()]).unwrap();
        let rules = Rules { zone: z(zone), days: Days(days), quiet_cap_secs: cap };
        let sleepers: Vec<Sleeper> = quiet
            .iter()
            .map(|&(start, len, zi)| Sleeper { zone: z(zi), quiet: Quiet { start, end: (start + len) % 1440 } })
            .collect();
        let opened = chrono::DateTime::from_timestamp(opened, 0).unwrap();
        let nominal = add_turn(opened, turn, rules.zone).unwrap();
        let due = deadline(opened, turn, &rules, &sleepers).unwrap();
        prop_assert!(due >= nominal);
        let most = chrono::Duration::days(7) + chrono::Duration::hours(2) + chrono::Duration::seconds(cap as i64);
        prop_assert!(due - nominal <= most, "{nominal} -> {due}");
        // A seat's bank: elapsed time, then days= and its own quiet hours, as bounded.
        let left_ms = i64::try_from(turn).unwrap() * 1000;
        let end = opened + chrono::Duration::milliseconds(left_ms);
        let out = photofinish::referee::calendar::bank_deadline(opened, left_ms, &rules, sleepers.first()).unwrap();
        prop_assert!(out >= end && out - end <= most, "{end} -> {out}");
    }
}
