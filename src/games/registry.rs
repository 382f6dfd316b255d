//! The registry: one enum over every game engine, so the referee, the store and the
//! adapters handle any game without knowing which (as shakmaty dispatches its variants).
//!
//! Adding a game is one line in the `registry!` invocation at the bottom (its engine) and
//! one entry in [`GameKind`] and `KINDS` (its name, and the options preset it starts
//! from). Two kinds may share an engine: 1000 miles and 1000 Yards are one card-race
//! engine with two rulesets.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::bot_order;
use crate::engine::{
    AskTargets, Autoplay, BotLevel, Game, GameRng, Glossary, Narration, OptionDoc, OptionsError,
    OrderError, Outcome, Pending, PreferenceError, Preferences, Presentation, Prompt, Seat,
    SeatSetup, Seed, SetupError, StateError, Submitted, apply_option_text, autopilot,
    autopilot_note, read_order,
};

/// A game as players name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameKind {
    DreamMile,
    MilleBornes,
    ThousandYards,
    FifteenHundred,
    MagicalAthlete,
}

struct KindSpec {
    kind: GameKind,
    slug: &'static str,
    title: &'static str,
    aliases: &'static [&'static str],
    engine: Engine,
    /// Options (JSON) laid over the engine's defaults for this kind.
    preset: &'static str,
}

const KINDS: &[KindSpec] = &[
    KindSpec {
        kind: GameKind::DreamMile,
        slug: "dream-mile",
        title: "Dream Mile",
        aliases: &["dreammile", "dream_mile", "dm"],
        engine: Engine::DreamMile,
        preset: "{}",
    },
    KindSpec {
        kind: GameKind::MilleBornes,
        slug: "1000-miles",
        title: "1000 miles",
        // `mille-bornes` was the slug once: stored races, exports and scripts keep it.
        aliases: &["mille-bornes", "1000miles", "mille"],
        engine: Engine::CardRace,
        preset: r#"{"ruleset":"playroom","target_score":5000,"rounds":0}"#,
    },
    KindSpec {
        kind: GameKind::ThousandYards,
        slug: "1000-yards",
        title: "1000 Yards",
        aliases: &["1000yards", "yards"],
        engine: Engine::CardRace,
        preset: r#"{"ruleset":"yards","target_score":0,"rounds":1}"#,
    },
    KindSpec {
        kind: GameKind::FifteenHundred,
        slug: "1500m",
        title: "1500m",
        aliases: &["1500", "1500-m", "fifteen-hundred"],
        engine: Engine::FifteenHundred,
        preset: "{}",
    },
    KindSpec {
        kind: GameKind::MagicalAthlete,
        slug: "magical-athlete",
        title: "Magical Athlete",
        aliases: &["ma", "magical"],
        engine: Engine::MagicalAthlete,
        preset: "{}",
    },
];

impl GameKind {
    fn spec(self) -> &'static KindSpec {
        // KINDS lists every kind; the fallback only keeps this total.
        KINDS.iter().find(|s| s.kind == self).unwrap_or(&KINDS[0])
    }

    /// Every game, in menu order.
    pub fn all() -> impl Iterator<Item = GameKind> {
        KINDS.iter().map(|s| s.kind)
    }

    /// The name used in commands and scripts, e.g. `dream-mile`.
    pub fn slug(self) -> &'static str {
        self.spec().slug
    }

    /// Every game's command name, comma-separated, as refusals list them.
    pub fn slugs() -> String {
        KINDS.iter().map(|s| s.slug).collect::<Vec<_>>().join(", ")
    }

    /// The display name, e.g. `Dream Mile`.
    pub fn title(self) -> &'static str {
        self.spec().title
    }

    /// Reads a game's name as a player might type it.
    pub fn from_slug(text: &str) -> Option<GameKind> {
        let t = text.trim().to_ascii_lowercase();
        KINDS
            .iter()
            .find(|s| s.slug == t || s.aliases.contains(&t.as_str()))
            .map(|s| s.kind)
    }

    /// The engine that plays this kind.
    pub fn engine(self) -> Engine {
        self.spec().engine
    }

    /// The standard options for this kind.
    pub fn default_options(self) -> Value {
        let preset = serde_json::from_str(self.spec().preset).unwrap_or(Value::Null);
        self.engine().default_options(&preset)
    }

    /// Applies `key=value` text on top of `base` (the kind's defaults when `None`).
    pub fn apply_options(self, base: Option<&Value>, text: &str) -> Result<Value, OptionsError> {
        let base = base.cloned().unwrap_or_else(|| self.default_options());
        self.engine().apply_options(&base, text)
    }

    pub fn option_docs(self) -> &'static [OptionDoc] {
        self.engine().option_docs()
    }

    pub fn seat_limits(self, options: &Value) -> Result<(usize, usize), OptionsError> {
        self.engine().seat_limits(options)
    }

    pub fn seat_choice_help(self) -> Option<&'static str> {
        self.engine().seat_choice_help(&self.default_options())
    }

    /// The pre-race choices a menu offers after Join, as (label, choice text); empty for a
    /// game without a closed list (Dream Mile's maximum speeds are one).
    pub fn seat_choice_menu(self, options: &Value) -> Vec<(String, String)> {
        self.engine().seat_choice_menu(options)
    }

    /// The pre-race choice that caps a seat's speed at `max` (`play --max-speed`); `None`:
    /// the game has no maximum speed to choose.
    pub fn max_speed_choice(self, max: u8) -> Option<String> {
        self.engine().max_speed_choice(max)
    }

    pub fn check_seat_choice(self, options: &Value, choice: &str) -> Result<(), String> {
        self.engine().check_seat_choice(options, choice)
    }

    pub fn preference_help(self) -> Option<&'static str> {
        self.engine().preference_help(&self.default_options())
    }

    /// `/race help`'s summary. Kinds sharing an engine have their own (1000 Yards is not
    /// told with 1000 miles' words): the engine words it from the kind's options.
    pub fn rules_summary(self) -> &'static str {
        self.engine().rules_summary(&self.default_options())
    }

    /// The reference the game's help page adds after its rules (Magical Athlete's racers).
    pub fn glossary(self) -> Option<Glossary> {
        self.engine().glossary()
    }

    /// Whether seats act in turn ([`Game::SEQUENTIAL`]): the race is told one post per
    /// round, and a player's own play is held for the grace window.
    pub fn sequential(self) -> bool {
        self.engine().sequential()
    }

    /// What chance decides, for the fair-dice line ([`Presentation::CHANCE`]); `None`: no
    /// dice.
    pub fn chance(self) -> Option<&'static str> {
        self.engine().chance()
    }

    /// What `sim --pace` checks autopilot's `auto` against ([`Preferences::ASK_TARGETS`]).
    pub fn ask_targets(self) -> AskTargets {
        self.engine().ask_targets()
    }

    /// Options as `key=value` text for display.
    pub fn describe_options(self, options: &Value) -> String {
        self.engine().describe_options(options)
    }

    pub fn setup(
        self,
        options: &Value,
        seats: &[SeatSetup],
        seed: Seed,
    ) -> Result<AnyGame, SetupError> {
        self.engine().setup(options, seats, seed)
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.title())
    }
}

fn typed_options<G: Game>(options: &Value) -> Result<G::Options, OptionsError> {
    serde_json::from_value(options.clone()).map_err(|e| OptionsError::Invalid(e.to_string()))
}

/// The typed options, or the engine's defaults where they do not read (help only).
fn typed_or_default<G: Game>(options: &Value) -> G::Options {
    typed_options::<G>(options).unwrap_or_default()
}

fn merge(base: &mut Value, over: &Value) {
    if let (Value::Object(b), Value::Object(o)) = (base, over) {
        for (k, v) in o {
            b.insert(k.clone(), v.clone());
        }
    }
}

fn default_options_of<G: Game>(preset: &Value) -> Value {
    let mut value = serde_json::to_value(G::Options::default()).unwrap_or(Value::Null);
    merge(&mut value, preset);
    // Round-trip through the type so a bad preset cannot survive.
    match serde_json::from_value::<G::Options>(value) {
        Ok(typed) => serde_json::to_value(typed).unwrap_or(Value::Null),
        Err(_) => serde_json::to_value(G::Options::default()).unwrap_or(Value::Null),
    }
}

fn apply_options_of<G: Game>(base: &Value, text: &str) -> Result<Value, OptionsError> {
    let base = typed_options::<G>(base)?;
    let next = apply_option_text(&base, text)?;
    G::check_options(&next)?;
    serde_json::to_value(next).map_err(|e| OptionsError::Invalid(e.to_string()))
}

fn setup_of<G: Game>(options: &Value, seats: &[SeatSetup], seed: Seed) -> Result<G, SetupError> {
    let options = typed_options::<G>(options)?;
    G::check_options(&options)?;
    let (min, max) = G::seat_limits(&options);
    if seats.len() < min || seats.len() > max {
        return Err(SetupError::SeatCount {
            min,
            max,
            got: seats.len(),
        });
    }
    G::setup(&options, seats, seed)
}

fn wrong_game() -> OrderError {
    OrderError::Illegal("that order belongs to another game".into())
}

/// Dream Mile's turn through the registry: its typed orders (one per runner, at most 12)
/// go on the stack, so the turn allocates only its event lists.
fn apply_dream_mile(
    g: &mut crate::games::dream_mile::DreamMile,
    orders: &[Submitted<AnyOrder>],
) -> Vec<AnyEvent> {
    use crate::games::dream_mile::{MAX_RUNNERS, Speed};
    let mut typed: [Submitted<Speed>; MAX_RUNNERS] =
        std::array::from_fn(|_| Submitted::new(Seat(0), Speed(0)));
    let mut n = 0usize;
    let mut more = Vec::new();
    for s in orders {
        let AnyOrder::DreamMile(o) = &s.order else {
            continue;
        };
        let sub = Submitted {
            seat: s.seat,
            order: *o,
            missed: s.missed,
        };
        match typed.get_mut(n) {
            Some(slot) => {
                *slot = sub;
                n += 1;
            }
            // More orders than runners: kept all the same, as the other games do.
            None => more.push(sub),
        }
    }
    let events = if more.is_empty() {
        g.apply(typed.get(..n).unwrap_or_default())
    } else {
        let all: Vec<Submitted<Speed>> = typed.iter().cloned().chain(more).collect();
        g.apply(&all)
    };
    events.into_iter().map(AnyEvent::DreamMile).collect()
}

macro_rules! registry {
    ($($variant:ident => $ty:ty),+ $(,)?) => {
        /// The engines, as opposed to the kinds of game players choose.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum Engine { $($variant),+ }

        /// Any game's state.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "engine", content = "state", rename_all = "kebab-case")]
        // Dream Mile's turn lives inline (fixed arrays) so that a turn does not allocate.
        #[allow(clippy::large_enum_variant)]
        pub enum AnyGame { $($variant($ty)),+ }

        /// Any game's typed order.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "engine", content = "order", rename_all = "kebab-case")]
        pub enum AnyOrder { $($variant(<$ty as Game>::Order)),+ }

        /// Any game's event.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "engine", content = "event", rename_all = "kebab-case")]
        // Dream Mile's turn lives inline (fixed arrays) so that a turn does not allocate.
        #[allow(clippy::large_enum_variant)]
        pub enum AnyEvent { $($variant(<$ty as Game>::Event)),+ }

        impl AnyEvent {
            /// The event in today's recorded form ([`Game::upgrade_event`]).
            pub fn upgraded(self) -> AnyEvent {
                match self { $(AnyEvent::$variant(e) => AnyEvent::$variant(<$ty as Game>::upgrade_event(e))),+ }
            }
        }

        /// Any game's public view.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "engine", content = "view", rename_all = "kebab-case")]
        pub enum AnyPublicView { $($variant(<$ty as Game>::PublicView)),+ }

        /// Any game's private view.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "engine", content = "view", rename_all = "kebab-case")]
        pub enum AnyPrivateView { $($variant(<$ty as Game>::PrivateView)),+ }

        impl Engine {
            fn default_options(self, preset: &Value) -> Value {
                match self { $(Engine::$variant => default_options_of::<$ty>(preset)),+ }
            }
            fn apply_options(self, base: &Value, text: &str) -> Result<Value, OptionsError> {
                match self { $(Engine::$variant => apply_options_of::<$ty>(base, text)),+ }
            }
            fn option_docs(self) -> &'static [OptionDoc] {
                match self { $(Engine::$variant => <$ty as Presentation>::option_docs()),+ }
            }
            fn seat_limits(self, options: &Value) -> Result<(usize, usize), OptionsError> {
                match self { $(Engine::$variant => typed_options::<$ty>(options).map(|o| <$ty as Game>::seat_limits(&o))),+ }
            }
            fn seat_choice_help(self, options: &Value) -> Option<&'static str> {
                match self { $(Engine::$variant => <$ty as Presentation>::seat_choice_help(&typed_or_default::<$ty>(options))),+ }
            }
            fn seat_choice_menu(self, options: &Value) -> Vec<(String, String)> {
                match self {
                    $(Engine::$variant => typed_options::<$ty>(options)
                        .map(|o| <$ty as Presentation>::seat_choice_menu(&o))
                        .unwrap_or_default()),+
                }
            }
            fn max_speed_choice(self, max: u8) -> Option<String> {
                match self { $(Engine::$variant => <$ty as Presentation>::max_speed_choice(max)),+ }
            }
            fn check_seat_choice(self, options: &Value, choice: &str) -> Result<(), String> {
                match self {
                    $(Engine::$variant => {
                        let o = typed_options::<$ty>(options).map_err(|e| e.to_string())?;
                        <$ty as Game>::check_seat_choice(&o, choice)
                    }),+
                }
            }
            fn preference_help(self, options: &Value) -> Option<&'static str> {
                match self { $(Engine::$variant => <$ty as Presentation>::preference_help(&typed_or_default::<$ty>(options))),+ }
            }
            fn rules_summary(self, options: &Value) -> &'static str {
                match self { $(Engine::$variant => <$ty as Presentation>::rules_summary(&typed_or_default::<$ty>(options))),+ }
            }
            fn glossary(self) -> Option<Glossary> {
                match self { $(Engine::$variant => <$ty as Presentation>::glossary()),+ }
            }
            fn sequential(self) -> bool {
                match self { $(Engine::$variant => <$ty as Game>::SEQUENTIAL),+ }
            }
            fn chance(self) -> Option<&'static str> {
                match self { $(Engine::$variant => <$ty as Presentation>::CHANCE),+ }
            }
            fn ask_targets(self) -> AskTargets {
                match self { $(Engine::$variant => <$ty as Preferences>::ASK_TARGETS),+ }
            }
            fn describe_options(self, options: &Value) -> String {
                match self {
                    $(Engine::$variant => typed_options::<$ty>(options)
                        .map(|o| crate::engine::option_text(&o))
                        .unwrap_or_default()),+
                }
            }
            fn setup(self, options: &Value, seats: &[SeatSetup], seed: Seed) -> Result<AnyGame, SetupError> {
                match self { $(Engine::$variant => setup_of::<$ty>(options, seats, seed).map(AnyGame::$variant)),+ }
            }
        }

        impl AnyGame {
            pub fn engine(&self) -> Engine {
                match self { $(AnyGame::$variant(_) => Engine::$variant),+ }
            }
            pub fn pending(&self) -> Pending {
                match self { $(AnyGame::$variant(g) => g.pending()),+ }
            }
            pub fn prompt(&self, seat: Seat) -> Prompt {
                match self { $(AnyGame::$variant(g) => g.prompt(seat)),+ }
            }
            /// Parses and validates order text from `seat`.
            pub fn read_order(&self, seat: Seat, text: &str) -> Result<AnyOrder, OrderError> {
                match self { $(AnyGame::$variant(g) => read_order(g, seat, text).map(AnyOrder::$variant)),+ }
            }
            #[allow(unreachable_patterns)]
            pub fn validate(&self, seat: Seat, order: &AnyOrder) -> Result<(), OrderError> {
                match (self, order) {
                    $((AnyGame::$variant(g), AnyOrder::$variant(o)) => {
                        g.validate(seat, o).map_err(|e| OrderError::Illegal(e.to_string()))
                    }),+
                    _ => Err(wrong_game()),
                }
            }
            #[allow(unreachable_patterns)]
            pub fn format_order(&self, seat: Seat, order: &AnyOrder) -> String {
                match (self, order) {
                    $((AnyGame::$variant(g), AnyOrder::$variant(o)) => g.format_order(seat, o),)+
                    _ => String::from("(an order for another game)"),
                }
            }
            pub fn default_order(&self, seat: Seat) -> AnyOrder {
                match self { $(AnyGame::$variant(g) => AnyOrder::$variant(g.default_order(seat))),+ }
            }
            pub fn bot_order(&self, seat: Seat, level: BotLevel, rng: &mut GameRng) -> AnyOrder {
                match self { $(AnyGame::$variant(g) => AnyOrder::$variant(bot_order(g, seat, level, rng))),+ }
            }
            /// Applies orders; any order of another game's type is dropped (and so defaulted).
            #[allow(unreachable_patterns)]
            pub fn apply(&mut self, orders: &[Submitted<AnyOrder>]) -> Vec<AnyEvent> {
                if let AnyGame::DreamMile(g) = self {
                    return apply_dream_mile(g, orders);
                }
                match self {
                    $(AnyGame::$variant(g) => {
                        let typed: Vec<Submitted<<$ty as Game>::Order>> = orders
                            .iter()
                            .filter_map(|s| match &s.order {
                                AnyOrder::$variant(o) => Some(Submitted { seat: s.seat, order: o.clone(), missed: s.missed }),
                                _ => None,
                            })
                            .collect();
                        g.apply(&typed).into_iter().map(AnyEvent::$variant).collect()
                    }),+
                }
            }
            #[allow(unreachable_patterns)]
            pub fn narrate(&self, event: &AnyEvent) -> Narration {
                match (self, event) {
                    $((AnyGame::$variant(g), AnyEvent::$variant(e)) => g.narrate(e),)+
                    _ => Narration::nobody(),
                }
            }
            /// One step's events in words; events of another game's type are not told.
            #[allow(unreachable_patterns)]
            pub fn narrate_all(&self, events: &[AnyEvent]) -> Vec<Narration> {
                match self {
                    $(AnyGame::$variant(g) => {
                        let typed: Vec<<$ty as Game>::Event> = events
                            .iter()
                            .filter_map(|e| match e {
                                AnyEvent::$variant(e) => Some(e.clone()),
                                _ => None,
                            })
                            .collect();
                        g.narrate_all(&typed)
                    }),+
                }
            }
            pub fn public_view(&self) -> AnyPublicView {
                match self { $(AnyGame::$variant(g) => AnyPublicView::$variant(g.public_view())),+ }
            }
            pub fn private_view(&self, seat: Seat) -> AnyPrivateView {
                match self { $(AnyGame::$variant(g) => AnyPrivateView::$variant(g.private_view(seat))),+ }
            }
            pub fn outcome(&self) -> Option<Outcome> {
                match self { $(AnyGame::$variant(g) => g.outcome()),+ }
            }
            /// Whether the state holds its game's invariants ([`Game::check`]).
            pub fn check(&self) -> Result<(), StateError> {
                match self { $(AnyGame::$variant(g) => g.check()),+ }
            }
            pub fn set_preference(&mut self, seat: Seat, text: &str) -> Result<String, PreferenceError> {
                match self { $(AnyGame::$variant(g) => g.set_preference(seat, text)),+ }
            }
            /// The order `auto` plays for `seat` without asking, and why (`None`: ask).
            pub fn autopilot(&self, seat: Seat) -> Option<(AnyOrder, Autoplay)> {
                match self { $(AnyGame::$variant(g) => autopilot(g, seat).map(|(o, why)| (AnyOrder::$variant(o), why))),+ }
            }
            /// As [`AnyGame::autopilot`], with a note for the DM ("by your standing play `attack`").
            pub fn autopilot_note(&self, seat: Seat) -> Option<(AnyOrder, Autoplay, String)> {
                match self { $(AnyGame::$variant(g) => autopilot_note(g, seat).map(|(o, why, note)| (AnyOrder::$variant(o), why, note))),+ }
            }
        }
    };
}

registry! {
    DreamMile => crate::games::dream_mile::DreamMile,
    CardRace => crate::games::card_race::CardRace,
    FifteenHundred => crate::games::fifteen_hundred::FifteenHundred,
    MagicalAthlete => crate::games::magical_athlete::MagicalAthlete,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_has_one_name_in_commands_and_in_words() {
        for k in GameKind::all() {
            let spelled = k.title().to_lowercase().replace(' ', "-");
            assert_eq!(k.slug(), spelled, "{k:?}");
        }
        // The old command name still reads.
        assert_eq!(
            GameKind::from_slug("mille-bornes"),
            Some(GameKind::MilleBornes)
        );
        assert!(!GameKind::slugs().contains("mille-bornes"));
    }

    #[test]
    fn every_kind_has_a_unique_slug_and_reads_back() {
        let kinds: Vec<GameKind> = GameKind::all().collect();
        for k in &kinds {
            assert_eq!(GameKind::from_slug(k.slug()), Some(*k));
            assert_eq!(GameKind::from_slug(&k.slug().to_uppercase()), Some(*k));
            assert!(k.default_options().is_object(), "{k:?}");
        }
        assert_eq!(GameKind::from_slug("chess"), None);
    }

    #[test]
    fn each_kind_states_its_own_facts() {
        use crate::engine::expert::Budget;
        use GameKind::*;
        // (kind, seats act in turn, what chance decides, expert steps, a max speed, a glossary)
        let facts = [
            (DreamMile, false, None, 20_000, true, false),
            (
                MilleBornes,
                true,
                Some("every shuffle"),
                45_000,
                false,
                false,
            ),
            (
                ThousandYards,
                true,
                Some("every shuffle"),
                45_000,
                false,
                false,
            ),
            (
                FifteenHundred,
                false,
                Some("every shuffle"),
                8_000,
                false,
                false,
            ),
            (
                MagicalAthlete,
                true,
                Some("every roll and every draw"),
                3_000,
                false,
                true,
            ),
        ];
        for (kind, sequential, chance, steps, max_speed, glossary) in facts {
            assert_eq!(kind.sequential(), sequential, "{kind:?}");
            assert_eq!(kind.chance(), chance, "{kind:?}");
            let budget = match kind.engine() {
                Engine::DreamMile => Budget::for_game::<crate::games::dream_mile::DreamMile>(),
                Engine::CardRace => Budget::for_game::<crate::games::card_race::CardRace>(),
                Engine::FifteenHundred => {
                    Budget::for_game::<crate::games::fifteen_hundred::FifteenHundred>()
                }
                Engine::MagicalAthlete => {
                    Budget::for_game::<crate::games::magical_athlete::MagicalAthlete>()
                }
            };
            assert_eq!(budget.steps, steps, "{kind:?}");
            assert_eq!(kind.max_speed_choice(12).is_some(), max_speed, "{kind:?}");
            assert_eq!(kind.glossary().is_some(), glossary, "{kind:?}");
        }
        assert_eq!(DreamMile.max_speed_choice(12).as_deref(), Some("max 12"));
        let targets = |k: GameKind| k.ask_targets();
        assert_eq!(targets(MagicalAthlete).per_seat.map(|t| t.0), Some(20));
        assert!(targets(MilleBornes).half_of_ask && targets(ThousandYards).half_of_ask);
        assert_eq!(targets(DreamMile), crate::engine::AskTargets::NONE);
        assert_eq!(targets(FifteenHundred), crate::engine::AskTargets::NONE);
    }

    #[test]
    fn setup_checks_seat_count() {
        let k = GameKind::DreamMile;
        let seats = vec![SeatSetup::named("A")];
        let err = k
            .setup(&k.default_options(), &seats, Seed::from_u64(1))
            .unwrap_err();
        assert!(matches!(err, SetupError::SeatCount { got: 1, .. }), "{err}");
    }

    #[test]
    fn state_serialises_with_its_engine_tag() {
        let k = GameKind::DreamMile;
        let seats: Vec<SeatSetup> = ["A", "B", "C"]
            .iter()
            .map(|n| SeatSetup::named(*n))
            .collect();
        let g = k
            .setup(&k.default_options(), &seats, Seed::from_u64(1))
            .unwrap();
        let json = serde_json::to_value(&g).unwrap();
        assert_eq!(json["engine"], "dream-mile");
        let back: AnyGame = serde_json::from_value(json).unwrap();
        assert_eq!(back, g);
    }
}
