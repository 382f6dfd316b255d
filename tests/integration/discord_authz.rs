//! The authorization matrix: every `/race` subcommand, run through the fake Discord by
//! each kind of person: the race's host, a member with Manage Server, a seated player,
//! another member of the server, a user of another server (Manage Server there, the
//! race's channel id, another guild id), and a seated player using the command in a DM.
//! Each cell asserts allowed or refused, and every refusal is ephemeral and says why.
//!
//! Allowed cells that change something run on a race of their own; refusals and reads
//! share one race per phase, which must come out unchanged. docs/reliability.md shows
//! the table.

use crate::support::discord::*;
use photofinish::vocab::Phase;
use serde_json::{Value, json};

const OTHER_GUILD: u64 = 800_000_000_000_000_002;

const NOT_HOST: &str = "Only the host or a member with Manage Server can do that.";
const NO_RACE: &str = "There is no race here";
const NOT_SEATED: &str = "You don't have a seat in this race.";
const SEATED_ALREADY: &str = "You already have a seat in this race.";
const GUILD_ONLY: &str = "You cannot run this command in DMs.";
const NO_PREFERENCES: &str = "This game has no personal settings.";

#[derive(Clone, Copy, Debug, PartialEq)]
enum Role {
    Host,
    Manager,
    Seated,
    Other,
    Foreign,
    Dm,
}

const ROLES: [Role; 6] = [
    Role::Host,
    Role::Manager,
    Role::Seated,
    Role::Other,
    Role::Foreign,
    Role::Dm,
];

/// What a command needs of its race.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Needs {
    /// A channel with no race.
    Nothing,
    Lobby,
    Running,
    /// Running, with turn 1 resolved.
    Played,
    Paused,
    /// Cancelled: the seed is out.
    Over,
}

/// A cell: allowed (the answer holds this), or refused (the answer says this).
#[derive(Clone, Copy, Debug)]
enum Cell {
    Yes(&'static str),
    No(&'static str),
}
use Cell::{No, Yes};

struct Row {
    sub: &'static str,
    /// The options, for this race (its seated player's name and user).
    options: fn(&User) -> Vec<(&'static str, Value)>,
    needs: Needs,
    /// Changes the race when allowed.
    mutates: bool,
    /// Host, Manager, Seated, Other, Foreign, Dm.
    cells: [Cell; 6],
}

fn none(_: &User) -> Vec<(&'static str, Value)> {
    vec![]
}

/// The matrix: one row per subcommand, one cell per role. A table, kept in one piece so
/// that it reads like the one in docs/reliability.md.
fn rows() -> Vec<Row> {
    let host_only = |ok: &'static str, dm: Cell| {
        [
            Yes(ok),
            Yes(ok),
            No(NOT_HOST),
            No(NOT_HOST),
            No(NO_RACE),
            dm,
        ]
    };
    let anyone = |ok: &'static str| [Yes(ok), Yes(ok), Yes(ok), Yes(ok), No(NO_RACE), Yes(ok)];
    vec![
        Row {
            sub: "new",
            options: |_| vec![("game", json!("dream-mile"))],
            needs: Needs::Nothing,
            mutates: true,
            cells: [
                Yes("is open"),
                Yes("is open"),
                Yes("is open"),
                Yes("is open"),
                Yes("is open"),
                No(GUILD_ONLY),
            ],
        },
        Row {
            sub: "join",
            options: none,
            needs: Needs::Lobby,
            mutates: true,
            cells: [
                No(SEATED_ALREADY),
                Yes("You're in"),
                No(SEATED_ALREADY),
                Yes("You're in"),
                No(NO_RACE),
                No(NO_RACE),
            ],
        },
        Row {
            sub: "leave",
            options: none,
            needs: Needs::Lobby,
            mutates: true,
            cells: [
                Yes("You left"),
                No(NOT_SEATED),
                Yes("You left"),
                No(NOT_SEATED),
                No(NO_RACE),
                No(NO_RACE),
            ],
        },
        Row {
            sub: "start",
            options: none,
            needs: Needs::Lobby,
            mutates: true,
            cells: host_only("is off", No(NO_RACE)),
        },
        Row {
            sub: "status",
            options: none,
            needs: Needs::Running,
            mutates: false,
            cells: anyone("Turn 1 of 8"),
        },
        Row {
            sub: "orders",
            options: none,
            needs: Needs::Running,
            mutates: false,
            cells: anyone("Still to order"),
        },
        Row {
            sub: "order",
            options: |_| vec![("text", json!("3"))],
            needs: Needs::Running,
            mutates: true,
            cells: [
                Yes("Order received"),
                No(NOT_SEATED),
                Yes("Order received"),
                No(NOT_SEATED),
                No(NO_RACE),
                Yes("Order received"),
            ],
        },
        Row {
            sub: "deadline",
            options: none,
            needs: Needs::Running,
            mutates: false,
            cells: anyone("orders are due"),
        },
        Row {
            sub: "deadline",
            options: |_| vec![("set", json!("2h"))],
            needs: Needs::Running,
            mutates: true,
            cells: host_only("Deadline moved", No(NOT_HOST)),
        },
        Row {
            sub: "deadline",
            options: |_| vec![("extend", json!("30m"))],
            needs: Needs::Running,
            mutates: true,
            cells: host_only("Deadline moved", No(NOT_HOST)),
        },
        Row {
            sub: "pause",
            options: none,
            needs: Needs::Running,
            mutates: true,
            cells: host_only("is paused", No(NOT_HOST)),
        },
        Row {
            sub: "pause",
            options: |_| vec![("resume", json!(true))],
            needs: Needs::Paused,
            mutates: true,
            cells: host_only("resumes", No(NOT_HOST)),
        },
        Row {
            sub: "bots",
            options: |_| vec![("count", json!(1))],
            needs: Needs::Lobby,
            mutates: true,
            cells: host_only("Bots added", No(NO_RACE)),
        },
        Row {
            sub: "replace",
            options: |_| {
                vec![
                    ("seat", json!("Sam")),
                    ("user", FakeDiscord::user_option(&dan())),
                ]
            },
            needs: Needs::Running,
            mutates: true,
            cells: host_only("is offered to", No(NOT_HOST)),
        },
        Row {
            sub: "kick",
            options: |seated| vec![("user", FakeDiscord::user_option(seated))],
            needs: Needs::Running,
            mutates: true,
            cells: host_only("is out of the race", No(NOT_HOST)),
        },
        Row {
            sub: "settings",
            options: none,
            needs: Needs::Running,
            mutates: false,
            cells: anyone("settings"),
        },
        Row {
            sub: "settings",
            options: |_| vec![("change", json!("turn=2h"))],
            needs: Needs::Running,
            mutates: true,
            cells: host_only("Settings changed", No(NOT_HOST)),
        },
        Row {
            sub: "preference",
            options: |_| vec![("text", json!("fast"))],
            needs: Needs::Running,
            mutates: true,
            cells: [
                No(NO_PREFERENCES),
                No(NOT_SEATED),
                No(NO_PREFERENCES),
                No(NOT_SEATED),
                No(NO_RACE),
                No(NO_PREFERENCES),
            ],
        },
        Row {
            sub: "history",
            options: |_| vec![("turn", json!(1))],
            needs: Needs::Played,
            mutates: false,
            cells: anyone("Orders and receipts"),
        },
        Row {
            sub: "verify",
            options: none,
            needs: Needs::Over,
            mutates: false,
            cells: [
                Yes("Verified"),
                Yes("Verified"),
                Yes("Verified"),
                Yes("Verified"),
                No(NO_RACE),
                No(NO_RACE),
            ],
        },
        Row {
            sub: "cancel",
            options: none,
            needs: Needs::Running,
            mutates: true,
            cells: host_only("is cancelled", No(NOT_HOST)),
        },
        Row {
            sub: "help",
            options: none,
            needs: Needs::Nothing,
            mutates: false,
            cells: [Yes("How to race"); 6],
        },
    ]
}

fn alice() -> User {
    User::new(1, "Alice")
}
fn carol() -> User {
    let mut u = User::new(3, "Carol");
    u.manage = true;
    u
}
fn dan() -> User {
    User::new(4, "Dan")
}
fn eve() -> User {
    let mut u = User::new(5, "Eve");
    u.manage = true;
    u
}

/// A race (or an empty channel) for one or more cells; its seated player is in no other
/// running race, so a DM finds it.
struct Fixture {
    channel: u64,
    seated: User,
}

struct World {
    h: Harness,
    next: u64,
}

impl World {
    async fn run(
        &self,
        user: &User,
        channel: u64,
        guild: Option<u64>,
        sub: &str,
        options: &[(&str, Value)],
    ) -> (u64, Value) {
        let id = match guild {
            Some(g) => self.h.fake.slash_in_guild(user, channel, g, sub, options),
            None => self.h.fake.slash(user, channel, sub, options),
        };
        (id, self.h.fake.response(id).await)
    }

    async fn must(
        &self,
        user: &User,
        channel: u64,
        sub: &str,
        options: &[(&str, Value)],
        says: &str,
    ) {
        let (_, a) = self.run(user, channel, None, sub, options).await;
        assert!(text_of(&a).contains(says), "setting up: /race {sub}: {a}");
    }

    async fn fixture(&mut self, needs: Needs) -> Fixture {
        self.next += 1;
        let channel = CHANNEL + 1000 + self.next;
        let seated = User::new(10_000 + self.next, "Sam");
        if needs == Needs::Nothing {
            return Fixture { channel, seated };
        }
        let host = alice();
        self.must(
            &host,
            channel,
            "new",
            &[
                ("game", json!("dream-mile")),
                ("options", json!("turn=1h reminders=none")),
            ],
            "is open",
        )
        .await;
        self.must(&host, channel, "join", &[], "You're in").await;
        self.must(&seated, channel, "join", &[], "You're in").await;
        if needs == Needs::Lobby {
            return Fixture { channel, seated };
        }
        self.must(&host, channel, "start", &[], "is off").await;
        match needs {
            Needs::Paused => self.must(&host, channel, "pause", &[], "is paused").await,
            Needs::Over => {
                self.must(&host, channel, "cancel", &[], "is cancelled")
                    .await;
            }
            Needs::Played => {
                self.must(
                    &host,
                    channel,
                    "order",
                    &[("text", json!("5"))],
                    "Order received",
                )
                .await;
                self.must(
                    &seated,
                    channel,
                    "order",
                    &[("text", json!("4"))],
                    "Order received",
                )
                .await;
            }
            _ => {}
        }
        Fixture { channel, seated }
    }
}

/// Whether the first answer to an interaction (the callback) was ephemeral.
fn ephemeral_callback(h: &Harness, id: u64) -> bool {
    h.fake
        .requests()
        .iter()
        .find(|r| r.method == "POST" && r.path.contains(&format!("/interactions/{id}/")))
        .is_some_and(|r| {
            r.body["data"]["flags"]
                .as_u64()
                .is_some_and(|f| f & 64 != 0)
        })
}

/// What a refusal must not change.
async fn snapshot(h: &Harness, channel: u64) -> Option<String> {
    let referee = h.referee();
    let race = referee.race_in_or_last(&channel.to_string()).await.ok()?;
    let o = referee.overview(race).await.unwrap();
    Some(format!(
        "{:?} {:?} {:?} {:?} {} {:?}",
        o.phase,
        o.seats
            .iter()
            .map(|s| (&s.name, &s.state, s.bot))
            .collect::<Vec<_>>(),
        o.deadline,
        o.paused_left_ms,
        o.options,
        o.users
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_by_everyone() {
    // One host opens a race per cell: more than the default quotas let one member have.
    let h = Harness::start_with_limits(Some(photofinish::referee::Limits {
        lobbies_per_user: 0,
        running_per_user: 0,
        lobbies_per_server: 0,
        running_per_server: 0,
        commands_burst: 0,
        ..photofinish::referee::Limits::default()
    }))
    .await;
    let mut w = World { h, next: 0 };
    let mut shared: Vec<(Needs, Fixture)> = Vec::new();
    let mut failures = Vec::new();
    let mut cells = 0;
    for row in rows() {
        for (role, cell) in ROLES.iter().zip(row.cells) {
            let allowed = matches!(cell, Yes(_));
            let fresh = allowed && row.mutates;
            let fix = if fresh || row.needs == Needs::Nothing {
                w.fixture(row.needs).await
            } else {
                if !shared.iter().any(|(n, _)| *n == row.needs) {
                    let f = w.fixture(row.needs).await;
                    shared.push((row.needs, f));
                }
                let (_, f) = shared.iter().find(|(n, _)| *n == row.needs).unwrap();
                Fixture {
                    channel: f.channel,
                    seated: f.seated.clone(),
                }
            };
            let before = snapshot(&w.h, fix.channel).await;
            let options = (row.options)(&fix.seated);
            let (user, channel, guild) = match role {
                Role::Host => (alice(), fix.channel, None),
                Role::Manager => (carol(), fix.channel, None),
                Role::Seated => (fix.seated.clone(), fix.channel, None),
                Role::Other => (dan(), fix.channel, None),
                Role::Foreign => (eve(), fix.channel, Some(OTHER_GUILD)),
                Role::Dm => (fix.seated.clone(), w.h.fake.open_dm(fix.seated.id), None),
            };
            let (id, answer) = w.run(&user, channel, guild, row.sub, &options).await;
            cells += 1;
            let text = text_of(&answer);
            let label = format!("/race {} {:?} as {role:?}", row.sub, options);
            if !ephemeral_callback(&w.h, id) {
                failures.push(format!("{label}: not ephemeral: {text}"));
            }
            match cell {
                Yes(says) => {
                    if !text.contains(says) || text.contains("Not done") {
                        failures.push(format!("{label}: should be allowed ({says}): {text}"));
                    }
                }
                No(says) => {
                    if !text.contains(says) {
                        failures.push(format!(
                            "{label}: should be refused ({says}): {text} {answer}"
                        ));
                    }
                    if snapshot(&w.h, fix.channel).await != before {
                        failures.push(format!("{label}: a refusal changed the race"));
                    }
                }
            }
        }
    }
    assert_eq!(cells, 22 * 6);
    assert!(
        failures.is_empty(),
        "{} cells wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The shared races are as they were set up.
    for (needs, f) in &shared {
        let race =
            w.h.referee()
                .race_in_or_last(&f.channel.to_string())
                .await
                .unwrap();
        let o = w.h.referee().overview(race).await.unwrap();
        let phase = match needs {
            Needs::Lobby => Phase::Lobby,
            Needs::Over => Phase::Cancelled,
            Needs::Paused => Phase::Paused,
            _ => Phase::Running,
        };
        assert_eq!(o.phase, phase, "{needs:?}");
    }
    assert!(w.h.fake.refusals().is_empty(), "{:#?}", w.h.fake.refusals());
}

/// Components, not only slash commands: a seat's prompt buttons (and select menu, when the
/// prompt has one) pressed by the seat, the host, a manager and another member. Only the
/// seat's own press is taken, and its order lands on that seat, never on the presser's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompt_components_by_everyone() {
    let h = Harness::start().await;
    let (host, seated) = (alice(), User::new(2, "Bob"));
    h.slash(
        &host,
        "new",
        &[
            ("game", json!("dream-mile")),
            ("options", json!("turn=1h reminders=none")),
        ],
    )
    .await;
    h.slash(&host, "join", &[]).await;
    h.slash(&seated, "join", &[]).await;
    h.slash(&host, "start", &[]).await;
    let prompt = h.fake.wait_dm(seated.id, 2).await;
    h.settle().await;
    let referee = h.referee();
    let race = referee.race_in(&CHANNEL.to_string()).await.unwrap();
    let states = || async {
        let o = referee.overview(race).await.unwrap();
        o.seats
            .iter()
            .map(|s| (s.name.clone(), s.state))
            .collect::<Vec<_>>()
    };
    let before = states().await;
    let press = button(&prompt, "7");
    let selects: Vec<(String, String)> = components(&prompt)
        .iter()
        .filter(|c| c["type"] == 3)
        .filter_map(|c| {
            let id = c["custom_id"].as_str()?.to_string();
            let value = c["options"][0]["value"].as_str()?.to_string();
            Some((id, value))
        })
        .collect();
    for someone in [host.clone(), carol(), dan()] {
        let a = h.click(&someone, &prompt, &press).await;
        assert!(
            !text_of(&a).contains("Order received"),
            "{} pressed Bob's button and it was taken: {a}",
            someone.name
        );
        for (id, value) in &selects {
            let it = h.fake.select(&someone, &prompt, id, value);
            let a = h.fake.response(it).await;
            assert!(
                !text_of(&a).contains("Order received"),
                "{} chose in Bob's menu and it was taken: {a}",
                someone.name
            );
        }
        assert_eq!(
            states().await,
            before,
            "{}'s press changed a seat",
            someone.name
        );
    }
    // Bob's own press lands on Bob's seat, and only there.
    let a = h.click(&seated, &prompt, &press).await;
    assert!(text_of(&a).contains("Order received"), "{a}");
    let after = states().await;
    for ((name, was), (_, now)) in before.iter().zip(&after) {
        if name == "Bob" {
            assert_eq!(*now, photofinish::referee::announce::SeatState::Ordered);
        } else {
            assert_eq!(now, was, "Bob's press moved {name}'s seat");
        }
    }
}
