//! One referee decision, worked out in memory: a loaded campaign goes in, a [`Commit`] comes
//! out. Opening steps, bots' orders, resolution (with default orders for missed deadlines),
//! chains of steps that need nobody, and the end of the race all live here, apart from any
//! I/O, so every path is easy to test and lands in one transaction.
//!
//! It runs a little past 1,000 lines because one decision's steps (open, resolve, chain,
//! tell) share `Work`'s private state (`Told`, the commit being built); the pieces that
//! stand alone already live beside it (`round.rs`, `grace.rs`, `autopilot.rs`, `chain.rs`).

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use super::announce::{
    Announcement, FinalPlace, LobbySeat, MissedOrder, NextStep, RevealedOrder, RoundStep,
    SeatState, StatusSeat, Target,
};
use super::error::RefereeError;
use super::round::{POST_NARRATION_CHARS, RoundSoFar, by_round, split_for_posts};
use crate::engine::{Audience, GameRng, Mode, Pending, Seat, Seed, Submitted, Window};
use crate::games::{AnyGame, AnyOrder, AnyPublicView};
use crate::store::{
    CampaignRow, Commit, DeadlineKind, Loaded, NewDeadline, NewOutbox, OrderRow, OrderSource,
    SeatRow, TurnRow,
};
use crate::vocab::{Millis, Phase, TimeContext, UserId};

/// Steps resolved in one commit before a chain of steps that need nobody yields: the
/// rest is carried on by a `Continue` deadline due at once, at the next tick. Nothing
/// caps a chain as a whole; a game that could loop without a person ends by its own
/// rule (the engines' loop guards).
pub const CHAIN_PER_COMMIT: usize = 200;

/// The furthest ahead a deadline may be set (a year): nothing beyond it can wrap.
pub const MAX_DEADLINE_AHEAD_MS: Millis = 366 * 86_400_000;

/// A resolution this long after its deadline is announced as late (the bot was down).
pub const LATE_AFTER_MS: Millis = 60_000;

/// The public receipt of an order: the SHA-256 (hex) of `race:step:seat:text:nonce`,
/// which commits to the order without showing it until the nonce is revealed.
pub fn receipt_for(race: i64, step: u32, seat: Seat, text: &str, nonce: &str) -> String {
    let digest = Sha256::digest(format!("{race}:{step}:{}:{text}:{nonce}", seat.0));
    hex::encode(digest)
}

/// The digits of a receipt a player is shown: its first ten, enough to tell orders
/// apart at a glance; the export keeps the whole hash.
pub fn short_receipt(receipt: &str) -> &str {
    receipt.get(..SHORT_RECEIPT).unwrap_or(receipt)
}

/// How many hex digits of a receipt are shown; receipts stored before whole hashes
/// were kept have exactly this many.
pub const SHORT_RECEIPT: usize = 10;

/// A fresh nonce for a receipt.
pub fn new_nonce() -> Result<String, RefereeError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes)
        .map_err(|e| RefereeError::Invalid(format!("no randomness: {e}")))?;
    Ok(hex::encode(bytes))
}

/// The orders a step applies: the live order of each pending seat, or its default
/// (`Mode::All`); the earliest order in (`Mode::Any`), or the first seat's default.
pub fn orders_to_apply(
    game: &AnyGame,
    pending: &Pending,
    live: &[OrderRow],
) -> Vec<(Submitted<AnyOrder>, Option<OrderRow>)> {
    let default_for = |seat: Seat| Submitted::missed(seat, game.default_order(seat));
    match pending.mode {
        Mode::All => pending
            .seats
            .iter()
            .map(|&seat| match live.iter().find(|o| o.seat == seat) {
                Some(o) if game.validate(seat, &o.parsed).is_ok() => (
                    Submitted {
                        seat,
                        order: o.parsed.clone(),
                        missed: o.source == OrderSource::Default,
                    },
                    Some(o.clone()),
                ),
                _ => (default_for(seat), None),
            })
            .collect(),
        Mode::Any => {
            let first = live
                .iter()
                .filter(|o| pending.includes(o.seat) && game.validate(o.seat, &o.parsed).is_ok())
                .min_by_key(|o| o.submitted_at);
            match (first, pending.seats.first()) {
                (Some(o), _) => vec![(
                    Submitted {
                        seat: o.seat,
                        order: o.parsed.clone(),
                        missed: o.source == OrderSource::Default,
                    },
                    Some(o.clone()),
                )],
                (None, Some(&seat)) => vec![(default_for(seat), None)],
                (None, None) => Vec::new(),
            }
        }
    }
}

/// A step resolved within this decision, to be told in one post.
#[derive(Default)]
struct Told {
    labels: Vec<String>,
    narration: Vec<String>,
    missed: Vec<MissedOrder>,
    revealed: Vec<RevealedOrder>,
    late: bool,
    private_notes: BTreeMap<Seat, Vec<String>>,
    /// Each step on its own, for a round's post (`round.rs`).
    steps: Vec<RoundStep>,
    /// The seats whose turn resolved (a short decision window is not a turn).
    acted: Vec<Seat>,
    /// Rounds that closed within this decision (a chain of bots' and autopilot's plays),
    /// each with the board it ended on, posted one by one before what is left.
    rounds: Vec<(RoundSoFar, AnyPublicView)>,
}

/// A decision in progress.
pub struct Work {
    pub campaign: CampaignRow,
    pub seats: Vec<SeatRow>,
    /// Live orders of the open step.
    pub orders: Vec<OrderRow>,
    pub now: Millis,
    pub commit: Commit,
    /// The server's zone and the players' time settings (`seat_time.rs`).
    pub time: TimeContext,
    expected_version: i64,
    /// The phase and host as loaded: a commit that keeps them does not write them.
    loaded_phase_and_host: (Phase, UserId),
    campaign_dirty: bool,
    seats_dirty: bool,
    state_dirty: bool,
    told: Told,
}

impl Work {
    pub fn new(loaded: Loaded, now: Millis) -> Work {
        Work {
            expected_version: loaded.campaign.version,
            loaded_phase_and_host: (loaded.campaign.phase, loaded.campaign.host.clone()),
            campaign: loaded.campaign,
            seats: loaded.seats,
            orders: loaded.orders,
            now,
            commit: Commit::default(),
            time: TimeContext::default(),
            campaign_dirty: false,
            seats_dirty: false,
            state_dirty: false,
            told: Told::default(),
        }
    }

    pub fn expected_version(&self) -> i64 {
        self.expected_version
    }

    /// Marks the campaign row as changed.
    pub fn touch(&mut self) {
        self.campaign_dirty = true;
    }

    /// Marks the game state as changed.
    pub fn touch_state(&mut self) {
        self.state_dirty = true;
        self.campaign_dirty = true;
    }

    /// Marks the seats as changed.
    pub fn touch_seats(&mut self) {
        self.seats_dirty = true;
    }

    /// Whether this decision writes anything.
    fn changed(&self) -> bool {
        let c = &self.commit;
        self.campaign_dirty
            || self.seats_dirty
            || !c.orders.is_empty()
            || !c.turns.is_empty()
            || !c.events.is_empty()
            || !c.preferences.is_empty()
            || c.deadlines.is_some()
            || !c.fired.is_empty()
            || !c.outbox.is_empty()
            || !c.withdrawn.is_empty()
    }

    /// The commit to write and the campaign as it will then be stored, or `None` when
    /// nothing changed.
    pub fn finish_with_after(self) -> Option<(Commit, Loaded)> {
        if !self.changed() {
            return None;
        }
        let mut campaign = self.campaign.clone();
        campaign.version = self.expected_version + 1;
        campaign.updated_at = self.now;
        let after = Loaded {
            campaign,
            seats: self.seats.clone(),
            orders: self.orders.clone(),
        };
        self.finish().map(|commit| (commit, after))
    }

    /// The commit to write, or `None` when nothing changed.
    pub fn finish(mut self) -> Option<Commit> {
        if !self.changed() {
            return None;
        }
        self.campaign.updated_at = self.now;
        self.commit.phase_and_host_kept = self.loaded_phase_and_host.0 == self.campaign.phase
            && self.loaded_phase_and_host.1 == self.campaign.host;
        self.commit.campaign = Some(self.campaign);
        self.commit.state_changed = self.state_dirty;
        if self.seats_dirty {
            self.commit.seats = Some(self.seats);
        }
        Some(self.commit)
    }

    pub fn game(&self) -> Result<&AnyGame, RefereeError> {
        self.campaign
            .state
            .as_ref()
            .ok_or_else(|| RefereeError::Corrupt("a started race has no state".into()))
    }

    fn game_mut(&mut self) -> Result<&mut AnyGame, RefereeError> {
        self.state_dirty = true;
        self.campaign
            .state
            .as_mut()
            .ok_or_else(|| RefereeError::Corrupt("a started race has no state".into()))
    }

    pub fn seed(&self) -> Result<Seed, RefereeError> {
        Seed::from_hex(&self.campaign.seed)
            .ok_or_else(|| RefereeError::Corrupt("the seed is unreadable".into()))
    }

    pub fn seat_of_user(&self, user: &UserId) -> Option<&SeatRow> {
        self.seats.iter().find(|s| s.user.as_ref() == Some(user))
    }

    pub fn seat_row(&self, seat: Seat) -> Option<&SeatRow> {
        self.seats.iter().find(|s| s.seat == seat)
    }

    pub fn seat_name(&self, seat: Seat) -> String {
        self.seat_row(seat)
            .map(|s| s.name.clone())
            .unwrap_or_else(|| seat.to_string())
    }

    pub fn say(&mut self, target: Target, announcement: Announcement) {
        self.say_coalesced(target, announcement, None);
    }

    /// A notice to the race's channel: `{at}` in `text` shows `at`, `{user}` pings `user`.
    pub fn notice(
        &mut self,
        text: String,
        at: Option<crate::vocab::Millis>,
        user: Option<crate::vocab::UserId>,
    ) {
        let race = self.campaign.id;
        self.say(
            Target::Channel,
            Announcement::Notice {
                race,
                text,
                at,
                user,
            },
        );
    }

    pub fn say_coalesced(
        &mut self,
        target: Target,
        announcement: Announcement,
        key: Option<String>,
    ) {
        let (Ok(target), Ok(payload)) = (
            crate::store::Json::encode(&target),
            crate::store::Json::encode(&announcement),
        ) else {
            tracing::error!("an announcement could not be encoded");
            return;
        };
        // One row per key and decision: an earlier one would only be written to be
        // superseded at once.
        if key.is_some() {
            self.commit.outbox.retain(|o| o.coalesce_key != key);
        }
        self.commit.outbox.push(NewOutbox {
            target,
            payload,
            coalesce_key: key,
            not_before: self.now,
        });
    }

    /// Queues a fresh lobby message.
    pub fn say_lobby(&mut self) {
        let (min, max) = self
            .campaign
            .kind
            .seat_limits(&self.campaign.options)
            .unwrap_or((0, 0));
        let announcement = Announcement::Lobby {
            race: self.campaign.id,
            game: self.campaign.kind,
            phase: self.campaign.phase,
            options: self.campaign.kind.describe_options(&self.campaign.options),
            seats: self
                .seats
                .iter()
                .map(|s| LobbySeat {
                    name: s.name.clone(),
                    bot: s.bot.is_some(),
                    choice: s.choice.clone(),
                })
                .collect(),
            min,
            max,
        };
        let key = format!("lobby:{}", self.campaign.id.0);
        self.say_coalesced(Target::Lobby, announcement, Some(key));
    }

    /// Queues a fresh status message (coalesced: only the newest is delivered).
    pub fn say_status(&mut self) {
        let (label, pending) = match self.campaign.state.as_ref() {
            Some(g) => {
                let p = g.pending();
                (p.label.clone(), p)
            }
            None => (String::new(), Pending::none()),
        };
        let seats = self
            .seats
            .iter()
            .map(|s| {
                let live = self.orders.iter().find(|o| o.seat == s.seat);
                let state = if !pending.includes(s.seat) {
                    SeatState::Idle
                } else if live.is_some() {
                    SeatState::Ordered
                } else {
                    SeatState::Waiting
                };
                StatusSeat {
                    name: s.name.clone(),
                    state,
                    bot: s.bot.is_some(),
                    receipt: live.map(|o| o.receipt.clone()),
                    bank: self.bank_shown(s.seat),
                }
            })
            .collect();
        let announcement = Announcement::Status {
            race: self.campaign.id,
            game: self.campaign.kind,
            phase: self.campaign.phase,
            label,
            deadline: self.campaign.deadline_at,
            seats,
        };
        let key = format!("status:{}", self.campaign.id.0);
        self.say_coalesced(Target::Status, announcement, Some(key));
    }

    /// Records a new live order for the open step, superseding any earlier one.
    pub fn put_order(&mut self, order: OrderRow) {
        if self.orders.iter().any(|o| o.seat == order.seat) {
            self.commit.replaces.push((order.step, order.seat));
        }
        self.orders.retain(|o| o.seat != order.seat);
        self.orders.push(order.clone());
        self.commit.orders.push(order);
    }

    pub(super) fn window_ms(&self, window: Window) -> Millis {
        let turn = self.campaign.timing.turn_secs;
        let secs = match window {
            Window::Turn | Window::Decision => turn,
            // A host's shorter decision window; never longer than a turn.
            Window::Seconds(n) => n.max(1).min(turn.max(1)),
        };
        i64::try_from(secs)
            .unwrap_or(i64::MAX / 2)
            .saturating_mul(1000)
    }

    /// Sets the open step's deadline (and its reminders) to `deadline`.
    pub fn schedule(&mut self, deadline: Millis) {
        self.shift_clocks(deadline);
        let step = self.campaign.step;
        let window = deadline.saturating_sub(self.now);
        let mut rows = vec![NewDeadline {
            step,
            kind: DeadlineKind::Deadline,
            due_at: deadline,
        }];
        // With clocks each seat's time differs: the prompt and status show it, no reminder.
        let reminders: &[u64] = if self.clocks_running() {
            &[]
        } else {
            &self.campaign.timing.reminders
        };
        for &offset in reminders {
            let offset_ms = i64::try_from(offset)
                .unwrap_or(i64::MAX / 2)
                .saturating_mul(1000);
            if offset_ms > 0 && offset_ms < window {
                rows.push(NewDeadline {
                    step,
                    kind: DeadlineKind::Reminder,
                    due_at: deadline.saturating_sub(offset_ms),
                });
            }
        }
        let nudged = self.clocks_running() && self.campaign.clocks.nudged;
        if let Some(nudge) = self.campaign.timing.calendar.nudge_secs.filter(|_| !nudged) {
            let nudge_ms = i64::try_from(nudge)
                .unwrap_or(i64::MAX / 2)
                .saturating_mul(1000);
            if nudge_ms > 0 && nudge_ms < window {
                rows.push(NewDeadline {
                    step,
                    kind: DeadlineKind::Nudge,
                    due_at: deadline.saturating_sub(nudge_ms),
                });
            }
        }
        self.commit.deadlines = Some(rows);
        self.campaign.deadline_at = Some(deadline);
        if let Some(turn) = self.commit.turns.iter_mut().find(|t| t.step == step) {
            turn.deadline_at = Some(deadline);
        }
        self.touch();
    }

    /// Clears every unfired deadline (paused, finished, cancelled).
    pub fn unschedule(&mut self) {
        self.commit.deadlines = Some(Vec::new());
        self.campaign.deadline_at = None;
        self.touch();
    }

    fn bot_rng(&self, seat: Seat) -> Result<GameRng, RefereeError> {
        let label = format!("bot/{}/{}", self.campaign.step, seat.0);
        Ok(GameRng::from_seed(self.seed()?.derive(&label)))
    }

    /// Opens the current step: its row, its deadline, bots' orders and prompts.
    fn open_step(&mut self) -> Result<(), RefereeError> {
        let game = self.game()?.clone();
        let pending = game.pending();
        let step = self.campaign.step;
        let deadline = match pending.window {
            // A turn falls on the calendar: the race's zone, days=, quiet hours.
            Window::Turn => match self.open_clocks(&pending) {
                Some(first_out) => first_out,
                None => self.turn_deadline(&pending),
            },
            Window::Seconds(_) | Window::Decision => {
                self.now.saturating_add(self.window_ms(pending.window))
            }
        };
        self.commit.turns.push(TurnRow {
            step,
            label: pending.label.clone(),
            pending: pending.clone(),
            opened_at: self.now,
            deadline_at: Some(deadline),
            resolved_at: None,
            late: false,
        });
        self.campaign.step_open = true;
        if self.campaign.phase == Phase::Running {
            self.schedule(deadline);
        }
        // Bots order at once. In a first-of-several window only the first seat decides
        // early: a bot further down the list would close the window on a human.
        let deciders: Vec<Seat> = match pending.mode {
            Mode::All => pending.seats.clone(),
            Mode::Any => pending.seats.first().copied().into_iter().collect(),
        };
        for seat in deciders {
            let Some(level) = self.seat_row(seat).and_then(|s| s.bot) else {
                continue;
            };
            let mut rng = self.bot_rng(seat)?;
            let order = game.bot_order(seat, level, &mut rng);
            let text = game.format_order(seat, &order);
            let nonce = new_nonce()?;
            let receipt = receipt_for(self.campaign.id.0, step, seat, &text, &nonce);
            self.put_order(OrderRow {
                step,
                seat,
                text,
                parsed: order,
                source: OrderSource::Bot,
                nonce,
                receipt,
                by_user: None,
                submitted_at: self.now,
            });
        }
        // Seats on autopilot, with the bot, or away order at once too (`autopilot.rs`).
        self.autoplay_open_step()?;
        self.touch();
        Ok(())
    }

    /// A private note for `seat`'s next DM (an order played for it).
    pub(super) fn note_for(&mut self, seat: Seat, text: String) {
        self.told.private_notes.entry(seat).or_default().push(text);
    }

    /// Whether the open step can resolve now, before its deadline.
    fn ready(&self) -> Result<bool, RefereeError> {
        // A player's play in its grace window waits: it may still change (`grace.rs`).
        if self.held_until()?.is_some() {
            return Ok(false);
        }
        let pending = self.game()?.pending();
        Ok(match pending.mode {
            Mode::Any => self.orders.iter().any(|o| pending.includes(o.seat)),
            Mode::All => {
                let all_in = pending
                    .seats
                    .iter()
                    .all(|s| self.orders.iter().any(|o| o.seat == *s) || self.ran_out(*s));
                // Nobody would change a bot's order, nor one played without asking.
                let all_bots = pending.seats.iter().all(|s| {
                    self.seat_row(*s).is_some_and(|r| r.bot.is_some()) || self.autoplayed(*s)
                });
                // A seat that ordered stopped its bank: a clock step waits for no one.
                all_in && (self.campaign.timing.resolve_early || all_bots || self.clocks_running())
            }
        })
    }

    /// Resolves the open step, filling missed orders with defaults.
    fn resolve_step(&mut self, late: bool) -> Result<(), RefereeError> {
        if !by_round(self.campaign.kind) && !self.told.steps.is_empty() {
            self.set_step_apart()?;
        }
        let step = self.campaign.step;
        let game = self.game()?.clone();
        let pending = game.pending();
        let chosen = orders_to_apply(&game, &pending, &self.orders);
        self.settle_clocks();
        let mut submitted = Vec::new();
        for (sub, row) in chosen {
            let row = match row {
                Some(r) => r,
                None => {
                    let text = game.format_order(sub.seat, &sub.order);
                    let nonce = new_nonce()?;
                    let r = OrderRow {
                        step,
                        seat: sub.seat,
                        receipt: receipt_for(self.campaign.id.0, step, sub.seat, &text, &nonce),
                        text: text.clone(),
                        parsed: sub.order.clone(),
                        source: OrderSource::Default,
                        nonce,
                        by_user: None,
                        submitted_at: self.now,
                    };
                    self.put_order(r.clone());
                    self.told.missed.push(MissedOrder {
                        name: self.seat_name(sub.seat),
                        played: text,
                    });
                    r
                }
            };
            self.told.revealed.push(RevealedOrder {
                step,
                name: self.seat_name(row.seat),
                order: row.text.clone(),
                nonce: row.nonce.clone(),
                receipt: row.receipt.clone(),
                source: row.source,
            });
            submitted.push(sub);
        }
        let events = {
            let g = self.game_mut()?;
            g.apply(&submitted)
        };
        let game = self.game()?.clone();
        let mut lines = Vec::new();
        for n in game.narrate_all(&events) {
            match n.audience {
                Audience::Public if !n.text.is_empty() => lines.push(n.text),
                Audience::Seat(s) if !n.text.is_empty() => {
                    self.told.private_notes.entry(s).or_default().push(n.text);
                }
                _ => {}
            }
        }
        self.commit.events.push((step, events));
        self.commit.turns.retain(|t| t.step != step);
        self.commit.turns.push(TurnRow {
            step,
            label: pending.label.clone(),
            pending: pending.clone(),
            opened_at: self.now,
            deadline_at: self.campaign.deadline_at,
            resolved_at: Some(self.now),
            late,
        });
        self.told.narration.extend(lines.iter().cloned());
        self.told.steps.push(RoundStep {
            step,
            label: pending.label.clone(),
            lines,
        });
        if pending.window == Window::Turn {
            self.told.acted.extend(submitted.iter().map(|s| s.seat));
        }
        self.told.labels.push(pending.label);
        self.told.late |= late;
        self.campaign.step += 1;
        self.campaign.step_open = false;
        self.orders.clear();
        self.unschedule();
        self.close_round_if_over()
    }

    /// In a sequential game, sets a round apart the moment it is over, with the board it
    /// ended on, so that a chain of plays nobody waits for (bots, autopilot) is told one
    /// post a round, never one post for the whole chain.
    fn close_round_if_over(&mut self) -> Result<(), RefereeError> {
        if !by_round(self.campaign.kind) {
            return Ok(());
        }
        let game = self.game()?;
        let mut round = self.round_so_far()?;
        round.extend(RoundSoFar {
            steps: self.told.steps.clone(),
            missed: self.told.missed.clone(),
            revealed: self.told.revealed.clone(),
            late: self.told.late,
            acted: self.told.acted.clone(),
        });
        // The race's end and a stop are told with the rest, by `tell`.
        if game.outcome().is_some() || !round.complete(game, self.campaign.phase) {
            return Ok(());
        }
        let view = game.public_view();
        if self.campaign.round.take().is_some() {
            self.touch();
        }
        self.set_apart(round, view);
        Ok(())
    }

    /// Moves what this decision has told so far into `told.rounds`, as `round` with the
    /// board it ended on; the private notes and the rounds set apart before stay.
    fn set_apart(&mut self, round: RoundSoFar, view: AnyPublicView) {
        let told = std::mem::take(&mut self.told);
        self.told.private_notes = told.private_notes;
        self.told.rounds = told.rounds;
        self.told.rounds.push((round, view));
    }

    /// In a simultaneous game, sets the step resolved earlier in this decision apart, with
    /// the board it ended on, before the next resolves: a chain of steps nobody waits for
    /// (every seat a bot or on autopilot) is told one post a step.
    fn set_step_apart(&mut self) -> Result<(), RefereeError> {
        let view = self.game()?.public_view();
        let told = &mut self.told;
        let round = RoundSoFar {
            steps: std::mem::take(&mut told.steps),
            missed: std::mem::take(&mut told.missed),
            revealed: std::mem::take(&mut told.revealed),
            late: told.late,
            acted: std::mem::take(&mut told.acted),
        };
        self.set_apart(round, view);
        Ok(())
    }

    /// Carries the race forward as far as it goes without anybody: opens the step, lets
    /// bots order, resolves what is ready, finishes the race. Then tells the channel.
    pub fn advance(&mut self) -> Result<(), RefereeError> {
        if self.campaign.phase != Phase::Running {
            return Ok(());
        }
        let mut opened_any = false;
        let mut resolved = 0usize;
        loop {
            if self.game()?.outcome().is_some() {
                return self.finish_race();
            }
            if !self.campaign.step_open {
                if resolved >= CHAIN_PER_COMMIT {
                    self.carry_on_later();
                    break;
                }
                self.open_step()?;
                opened_any = true;
            }
            if self.ready()? {
                self.resolve_step(false)?;
                resolved = resolved.saturating_add(1);
            } else {
                break;
            }
        }
        if self.campaign.step_open
            && let Some(until) = self.held_until()?
        {
            self.hold(until);
        }
        self.follow_clocks();
        // Prompts only for a step that is open: a chain that yielded prompts when it
        // opens its next step.
        let prompt = opened_any && self.campaign.step_open;
        self.tell(prompt)
    }

    /// Yields a long chain: the next tick carries it on (a `Continue` deadline due now).
    fn carry_on_later(&mut self) {
        self.commit.deadlines = Some(vec![NewDeadline {
            step: self.campaign.step,
            kind: DeadlineKind::Continue,
            due_at: self.now,
        }]);
        self.touch();
    }

    /// Resolves the open step at its deadline, then carries on.
    pub fn resolve_at_deadline(&mut self, due_at: Millis) -> Result<(), RefereeError> {
        if self.clocks_running() && !self.banks_ran_out()? {
            return Ok(()); // other banks still run
        }
        let late = self.now.saturating_sub(due_at) > LATE_AFTER_MS;
        self.resolve_step(late)?;
        self.advance()
    }

    /// Tells the channel what resolved, updates the status, and prompts who must act.
    fn tell(&mut self, opened: bool) -> Result<(), RefereeError> {
        let mut told = std::mem::take(&mut self.told);
        let game = self.game()?.clone();
        let pending = game.pending();
        let private_notes = std::mem::take(&mut told.private_notes);
        let rounds = std::mem::take(&mut told.rounds);
        let tail = self.post_of(told)?;
        let last = rounds.len().saturating_sub(1);
        for (i, (round, view)) in rounds.into_iter().enumerate() {
            // The last round told is followed by the step now open, with its deadline;
            // an earlier one only by the label of the step it handed on to.
            let next = if i == last && tail.is_none() {
                (!pending.is_empty()).then(|| self.next_step(&pending))
            } else {
                None
            };
            self.say_resolved(Announcement::TurnResolved {
                race: self.campaign.id,
                game: self.campaign.kind,
                labels: round.labels(),
                narration: round.narration(),
                // A simultaneous game's step is told as one paragraph, as its tail is.
                steps: if by_round(self.campaign.kind) {
                    round.steps
                } else {
                    Vec::new()
                },
                missed: round.missed,
                revealed: round.revealed,
                view,
                late: round.late,
                next,
                part: None,
            });
        }
        if let Some(post) = tail {
            let next = (!pending.is_empty()).then(|| self.next_step(&pending));
            self.say_resolved(Announcement::TurnResolved {
                race: self.campaign.id,
                game: self.campaign.kind,
                labels: post.labels,
                narration: post.narration,
                steps: post.steps,
                missed: post.missed,
                revealed: post.revealed,
                view: game.public_view(),
                late: post.late,
                next,
                part: None,
            });
        }
        self.say_status();
        if opened || !private_notes.is_empty() {
            self.prompt_and_update(&game, &pending, private_notes, opened)?;
        }
        Ok(())
    }

    /// Posts a resolved round or turn, in as many parts as its narration needs
    /// (`round::split_for_posts`); the last part carries the board, the orders and what
    /// comes next.
    fn say_resolved(&mut self, a: Announcement) {
        let Announcement::TurnResolved {
            race,
            game,
            labels,
            narration,
            steps,
            missed,
            revealed,
            view,
            late,
            next,
            ..
        } = a
        else {
            self.say(Target::Channel, a);
            return;
        };
        let parts = split_for_posts(narration, steps, POST_NARRATION_CHARS);
        let n = u32::try_from(parts.len()).unwrap_or(u32::MAX);
        let (mut missed, mut revealed, mut next) = (Some(missed), Some(revealed), Some(next));
        for (i, (narration, steps)) in (1..).zip(parts) {
            let last = i >= n;
            self.say(
                Target::Channel,
                Announcement::TurnResolved {
                    race,
                    game,
                    labels: labels.clone(),
                    narration,
                    steps,
                    missed: if last {
                        missed.take().unwrap_or_default()
                    } else {
                        Vec::new()
                    },
                    revealed: if last {
                        revealed.take().unwrap_or_default()
                    } else {
                        Vec::new()
                    },
                    view: view.clone(),
                    late: late && last,
                    next: if last { next.take().flatten() } else { None },
                    part: (n > 1).then_some((i, n)),
                },
            );
        }
    }

    /// What comes next, for a post's footer: the open step and its deadline.
    fn next_step(&self, pending: &Pending) -> NextStep {
        NextStep {
            label: pending.label.clone(),
            deadline: self.campaign.deadline_at,
            waiting_on: pending.seats.iter().map(|&s| self.seat_name(s)).collect(),
        }
    }

    /// Posts the open round as it stands, when the race stops mid-round (cancelled).
    pub fn tell_open_round(&mut self) -> Result<(), RefereeError> {
        if self.campaign.round.is_some() && self.campaign.state.is_some() {
            self.tell(false)?;
        }
        Ok(())
    }

    /// What the channel is told now: this decision's steps in a simultaneous game; in a
    /// sequential one the whole round once it is over, nothing before (`round.rs`).
    fn post_of(&mut self, told: Told) -> Result<Option<Told>, RefereeError> {
        if !by_round(self.campaign.kind) {
            let told = Told {
                steps: Vec::new(),
                ..told
            };
            return Ok((!told.labels.is_empty()).then_some(told));
        }
        let round = self.gather_round(RoundSoFar {
            steps: told.steps,
            missed: told.missed,
            revealed: told.revealed,
            late: told.late,
            acted: told.acted,
        })?;
        Ok(round.map(|r| Told {
            labels: r.labels(),
            narration: r.narration(),
            steps: r.steps,
            missed: r.missed,
            revealed: r.revealed,
            late: r.late,
            ..Told::default()
        }))
    }

    /// The open round as stored.
    fn round_so_far(&self) -> Result<RoundSoFar, RefereeError> {
        match &self.campaign.round {
            None => Ok(RoundSoFar::default()),
            Some(v) => serde_json::from_value(v.clone())
                .map_err(|e| RefereeError::Corrupt(format!("the open round is unreadable: {e}"))),
        }
    }

    /// Adds this decision's steps to the open round. Returns the whole round once it is
    /// over (and clears it); until then keeps it on the campaign row.
    pub(super) fn gather_round(
        &mut self,
        told: RoundSoFar,
    ) -> Result<Option<RoundSoFar>, RefereeError> {
        let stored = self.campaign.round.is_some();
        let mut round = self.round_so_far()?;
        round.extend(told);
        if round.steps.is_empty() {
            return Ok(None);
        }
        let complete = round.complete(self.game()?, self.campaign.phase);
        self.campaign.round = if complete {
            None
        } else {
            Some(
                serde_json::to_value(&round)
                    .map_err(|e| RefereeError::Corrupt(format!("cannot store the round: {e}")))?,
            )
        };
        if complete || stored || self.campaign.round.is_some() {
            self.touch();
        }
        Ok(complete.then_some(round))
    }

    /// DMs each human seat that must act; refreshes the others whose view changed.
    fn prompt_and_update(
        &mut self,
        game: &AnyGame,
        pending: &Pending,
        mut notes: BTreeMap<Seat, Vec<String>>,
        opened: bool,
    ) -> Result<(), RefereeError> {
        let seats = self.seats.clone();
        for s in seats {
            let (Some(user), None) = (s.user.clone(), s.bot) else {
                continue;
            };
            let view = game.private_view(s.seat);
            let hash = serde_json::to_vec(&view)
                .map(|b| hex::encode(&Sha256::digest(b)[..8]))
                .unwrap_or_default();
            let my_notes = notes.remove(&s.seat).unwrap_or_default();
            let target = Target::Dm { user, seat: s.seat };
            if opened && pending.includes(s.seat) && !self.autoplayed(s.seat) {
                let announcement = Announcement::Prompt {
                    race: self.campaign.id,
                    game: self.campaign.kind,
                    step: self.campaign.step,
                    seat: s.seat,
                    seat_name: s.name.clone(),
                    label: pending.label.clone(),
                    view,
                    prompt: game.prompt(s.seat),
                    deadline: self.seat_due(s.seat).or(self.campaign.deadline_at),
                    notes: my_notes,
                };
                self.say(target, announcement);
            } else if s.view_hash.as_deref() != Some(hash.as_str()) || !my_notes.is_empty() {
                let announcement = Announcement::ViewUpdate {
                    race: self.campaign.id,
                    game: self.campaign.kind,
                    seat: s.seat,
                    seat_name: s.name.clone(),
                    view,
                    notes: my_notes,
                };
                self.say(target, announcement);
            } else {
                continue;
            }
            if let Some(row) = self.seats.iter_mut().find(|r| r.seat == s.seat) {
                row.view_hash = Some(hash);
            }
            self.touch_seats();
        }
        Ok(())
    }

    /// The race is over: results, and the seed revealed.
    fn finish_race(&mut self) -> Result<(), RefereeError> {
        self.tell(false)?;
        let game = self.game()?.clone();
        let outcome = game
            .outcome()
            .unwrap_or(crate::engine::Outcome { placings: vec![] });
        self.campaign.phase = Phase::Finished;
        self.campaign.ended_at = Some(self.now);
        self.unschedule();
        let placings = outcome
            .placings
            .iter()
            .map(|p| FinalPlace {
                rank: p.rank,
                name: self.seat_name(p.seat),
                score: p.score,
            })
            .collect();
        self.say(
            Target::Channel,
            Announcement::Finished {
                race: self.campaign.id,
                game: self.campaign.kind,
                view: game.public_view(),
                placings,
                seed: self.campaign.seed.clone(),
                commitment: self.campaign.commitment.clone(),
            },
        );
        self.say_status();
        Ok(())
    }
}
