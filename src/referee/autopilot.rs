//! Autopilot in the referee: each seat's setting (`ask`, `auto`, `bot`), the
//! orders played for a seat without asking when a step opens (or when its setting or
//! absence changes mid-step), and `/race autopilot`.
//!
//! What may be played is the engine's (`engine::autopilot`); this module decides *whom*
//! it is played for. An order played this way has the source `auto`: it counts as the
//! player's own order, never as a missed one, and its seat is told in the DM.

use super::error::RefereeError;
use super::machine::{Referee, require_open};
use super::work::{Work, new_nonce, receipt_for};
use crate::engine::{Autopilot, Autoplay, BotLevel, GameRng, Mode, Seat};
use crate::games::AnyOrder;
use crate::store::{OrderRow, OrderSource};
use crate::vocab::{CampaignId, Phase, UserId};

/// How a human seat is played in the open step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Driver {
    /// Its setting.
    Setting(Autopilot),
    /// Its player is away (`/race away`): forced and obvious orders by autopilot, the rest
    /// by the built-in bot, at once.
    Away,
}

/// Why an order was played for a seat, as its DM says it.
fn why(driver: Driver, autoplay: Option<Autoplay>) -> &'static str {
    match (driver, autoplay) {
        (_, Some(Autoplay::Forced)) => "the only legal choice",
        (_, Some(Autoplay::Obvious)) => "the obvious choice",
        (_, Some(Autoplay::Standing)) => "by your standing plays",
        (Driver::Away, None) => "you are away; the bot chose",
        (Driver::Setting(_), None) => "your autopilot is `bot`",
    }
}

impl Work {
    /// How a seat is played now; `None` for a bot seat or a seat with no player.
    pub fn driver(&self, seat: Seat) -> Option<Driver> {
        let row = self.seat_row(seat)?;
        if row.bot.is_some() || row.user.is_none() {
            return None;
        }
        if row.away.as_ref().is_some_and(|a| a.until > self.now) {
            return Some(Driver::Away);
        }
        Some(Driver::Setting(row.autopilot))
    }

    /// The order played for `seat` without asking now, and whether autopilot (rather than
    /// the bot) chose it; `None`: the seat is asked.
    fn played_for(
        &self,
        seat: Seat,
        driver: Driver,
    ) -> Result<Option<(AnyOrder, Option<Autoplay>)>, RefereeError> {
        let game = self.game()?;
        let by_autopilot = || game.autopilot(seat).map(|(o, w)| (o, Some(w)));
        let by_bot = || -> Result<(AnyOrder, Option<Autoplay>), RefereeError> {
            let label = format!("autopilot/{}/{}", self.campaign.step, seat.0);
            let mut rng = GameRng::from_seed(self.seed()?.derive(&label));
            Ok((game.bot_order(seat, BotLevel::Heuristic, &mut rng), None))
        };
        Ok(match driver {
            Driver::Setting(Autopilot::Ask) => None,
            Driver::Setting(Autopilot::Auto) => by_autopilot(),
            Driver::Setting(Autopilot::Bot) => Some(by_bot()?),
            Driver::Away => match by_autopilot() {
                Some(found) => Some(found),
                None => Some(by_bot()?),
            },
        })
    }

    /// Plays, for each human seat the open step awaits and that has no order in, what
    /// its autopilot (or absence) plays without asking. In a first-of-several window only
    /// the first seat is played for, as with bots: a later one would close the window on
    /// a person.
    pub(super) fn autoplay_open_step(&mut self) -> Result<(), RefereeError> {
        if !self.campaign.step_open {
            return Ok(());
        }
        let pending = self.game()?.pending();
        let deciders: Vec<Seat> = match pending.mode {
            Mode::All => pending.seats.clone(),
            Mode::Any => pending.seats.first().copied().into_iter().collect(),
        };
        let step = self.campaign.step;
        for seat in deciders {
            if self.orders.iter().any(|o| o.seat == seat) {
                continue;
            }
            let Some(driver) = self.driver(seat) else {
                continue;
            };
            let Some((order, autoplay)) = self.played_for(seat, driver)? else {
                continue;
            };
            let text = self.game()?.format_order(seat, &order);
            let nonce = new_nonce()?;
            let receipt = receipt_for(self.campaign.id.0, step, seat, &text, &nonce);
            // "Round 1: Ann to play" says only what the DM says already.
            let which = if pending.label.contains(&self.seat_name(seat)) {
                String::new()
            } else {
                format!(" ({})", pending.label)
            };
            self.note_for(
                seat,
                format!("Played for you{which}: {text} ({}).", why(driver, autoplay)),
            );
            self.put_order(OrderRow {
                step,
                seat,
                text,
                parsed: order,
                source: OrderSource::Auto,
                nonce,
                receipt,
                by_user: None,
                submitted_at: self.now,
            });
        }
        Ok(())
    }

    /// After a seat's setting or absence changed: plays for it in the open step if it
    /// now should, and carries the race on.
    pub(super) fn autoplay_now(&mut self) -> Result<(), RefereeError> {
        if self.campaign.phase != Phase::Running || !self.campaign.step_open {
            return Ok(());
        }
        let before = self.orders.len();
        self.autoplay_open_step()?;
        if self.orders.len() != before {
            self.advance()?;
        }
        Ok(())
    }

    /// Whether `seat`'s order in the open step was played for it without asking.
    pub fn autoplayed(&self, seat: Seat) -> bool {
        self.orders
            .iter()
            .any(|o| o.seat == seat && o.source == OrderSource::Auto)
    }
}

impl Referee {
    /// Shows (`None`) or sets the user's seat's autopilot in a race; a seat that now
    /// should be played for in the open step is played for at once.
    pub async fn set_autopilot(
        &self,
        id: CampaignId,
        user: &UserId,
        setting: Option<&str>,
    ) -> Result<Autopilot, RefereeError> {
        let wanted = match setting.map(str::trim).filter(|s| !s.is_empty()) {
            Some(text) => Some(Autopilot::parse(text).ok_or_else(|| {
                RefereeError::Invalid(format!(
                    "autopilot is `ask`, `auto` or `bot`, not `{}`",
                    super::machine::clean_text(text)
                        .chars()
                        .take(20)
                        .collect::<String>()
                ))
            })?),
            None => None,
        };
        if wanted.is_some() {
            self.pace_action(user)?;
        }
        self.mutate(id, |w| {
            require_open(w)?;
            let row = w.seat_of_user(user).ok_or(RefereeError::NotSeated)?;
            if row.bot.is_some() {
                return Err(RefereeError::SeatIsBot);
            }
            let (seat, current) = (row.seat, row.autopilot);
            let Some(wanted) = wanted.filter(|&a| a != current) else {
                return Ok(current);
            };
            if let Some(s) = w.seats.iter_mut().find(|s| s.seat == seat) {
                s.autopilot = wanted;
            }
            w.touch_seats();
            w.autoplay_now()?;
            Ok(wanted)
        })
        .await
    }
}

/// What a setting does, in a sentence.
pub fn describe(setting: Autopilot) -> &'static str {
    match setting {
        Autopilot::Ask => {
            "Autopilot `ask`: you are asked every decision, even one with a single choice."
        }
        Autopilot::Auto => {
            "Autopilot `auto`: orders with a single legal choice, and the game's obvious ones, are played for you at once (your DM says what); the rest is asked."
        }
        Autopilot::Bot => {
            "Autopilot `bot`: the built-in bot plays your seat at once while you watch; your DM says each order it played."
        }
    }
}
