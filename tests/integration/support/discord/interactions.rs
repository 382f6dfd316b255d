//! What people do on the fake Discord: slash commands (from this server, another one, or
//! a DM), button presses and menu picks (each an interaction with its token), and DMs to
//! the bot; and the bot's answers to them.

use std::time::Duration;

use serde_json::{Value, json};

use super::state::Interaction;
use super::{APP_ID, COMMAND_ID, FakeDiscord, GUILD_ID, User, now_iso};

/// The bot's top-level commands besides `/race`, named first in [`FakeDiscord::slash`].
const TOP_LEVEL: [&str; 2] = ["race", "photofinish"];

impl FakeDiscord {
    pub(super) fn new_interaction(&self, channel: u64, message: Option<u64>) -> (u64, String) {
        let id = self.shared.id();
        let token = format!("itoken{id}");
        self.shared.inner.lock().unwrap().interactions.insert(
            id,
            Interaction {
                token: token.clone(),
                channel,
                dispatched: self.shared.now(),
                acknowledged: None,
                callback_at: None,
                responded: false,
                response: None,
                original: None,
                message,
            },
        );
        (id, token)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn interaction_json(
        &self,
        id: u64,
        token: &str,
        kind: u8,
        user: &User,
        channel: u64,
        data: Value,
        message: Option<Value>,
    ) -> Value {
        let (in_dm, guild) = {
            let mut inner = self.shared.inner.lock().unwrap();
            inner.users.insert(user.id);
            let guild = inner
                .guild_override
                .take()
                .or_else(|| inner.sharding.guild_of.get(&channel).copied())
                .unwrap_or(GUILD_ID);
            (inner.recipient_of.contains_key(&channel), guild)
        };
        let mut v = json!({
            "id": id.to_string(),
            "application_id": APP_ID.to_string(),
            "type": kind,
            "data": data,
            "channel_id": channel.to_string(),
            "channel": {"id": channel.to_string(), "type": if in_dm { 1 } else { 0 }},
            "token": token,
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": 8_388_608,
            "app_permissions": "2248473465835073",
            "authorizing_integration_owners": {},
            "context": if in_dm { 1 } else { 0 },
        });
        if in_dm {
            v["user"] = user.json();
        } else {
            v["guild_id"] = json!(guild.to_string());
            v["guild_locale"] = json!("en-US");
            let mut member = user.member();
            member["guild_id"] = json!(guild.to_string());
            v["member"] = member;
        }
        if let Some(m) = message {
            v["message"] = m;
        }
        v
    }

    /// A `/race <sub>` slash command; `options` are (name, value) pairs. `sub` may name
    /// another top-level command first (`"photofinish config"`), or a subcommand group and
    /// its subcommand (`"series new"`: `/race series new`). Returns the interaction id.
    pub fn slash(&self, user: &User, channel: u64, sub: &str, options: &[(&str, Value)]) -> u64 {
        let (id, token) = self.new_interaction(channel, None);
        self.send_slash(id, &token, user, channel, sub, options);
        id
    }

    /// Sends the very same slash command's INTERACTION_CREATE again (a duplicate gateway
    /// event, or one given to a second process on the same shard).
    pub fn replay_slash(
        &self,
        id: u64,
        user: &User,
        channel: u64,
        sub: &str,
        options: &[(&str, Value)],
    ) {
        let token = self.shared.inner.lock().unwrap().interactions[&id]
            .token
            .clone();
        self.send_slash(id, &token, user, channel, sub, options);
    }

    fn send_slash(
        &self,
        id: u64,
        token: &str,
        user: &User,
        channel: u64,
        sub: &str,
        options: &[(&str, Value)],
    ) {
        let mut resolved_users = serde_json::Map::new();
        let mut resolved_members = serde_json::Map::new();
        let opts: Vec<Value> = options
            .iter()
            .map(|(name, value)| {
                let kind = match value {
                    Value::Bool(_) => 5,
                    Value::Number(_) => 4,
                    Value::Object(o) if o.contains_key("user") => 6,
                    _ => 3,
                };
                if kind == 6 {
                    let u = &value["user"];
                    let uid = u["id"].as_str().unwrap_or("0").to_string();
                    resolved_users.insert(uid.clone(), u.clone());
                    let mut m = value["member"].clone();
                    if let Some(o) = m.as_object_mut() {
                        o.remove("user");
                    }
                    resolved_members.insert(uid.clone(), m);
                    json!({"name": name, "type": 6, "value": uid})
                } else {
                    json!({"name": name, "type": kind, "value": value})
                }
            })
            .collect();
        let mut words: Vec<&str> = sub.split_whitespace().collect();
        let command = match words.first() {
            Some(&top) if TOP_LEVEL.contains(&top) => words.remove(0),
            _ => "race",
        };
        // "series new": a SUB_COMMAND_GROUP holding the SUB_COMMAND.
        let option = match words.as_slice() {
            [group, sub] => json!({"name": group, "type": 2, "options": [
                {"name": sub, "type": 1, "options": opts}
            ]}),
            _ => json!({"name": words.join(" "), "type": 1, "options": opts}),
        };
        let mut data = json!({
            "id": COMMAND_ID.to_string(),
            "name": command,
            "type": 1,
            "options": [option],
        });
        if !resolved_users.is_empty() {
            data["resolved"] = json!({"users": resolved_users, "members": resolved_members});
        }
        let v = self.interaction_json(id, token, 2, user, channel, data, None);
        self.send("INTERACTION_CREATE", v);
    }

    /// A user option's value for [`FakeDiscord::slash`].
    pub fn user_option(user: &User) -> Value {
        json!({"user": user.json(), "member": user.member()})
    }

    /// Presses a button on a message. Returns the interaction id.
    pub fn click(&self, user: &User, message: &Value, custom_id: &str) -> u64 {
        let channel: u64 = message["channel_id"].as_str().unwrap().parse().unwrap();
        let mid: u64 = message["id"].as_str().unwrap().parse().unwrap();
        let (id, token) = self.new_interaction(channel, Some(mid));
        let data = json!({"custom_id": custom_id, "component_type": 2});
        let v = self.interaction_json(id, &token, 3, user, channel, data, Some(message.clone()));
        self.send("INTERACTION_CREATE", v);
        id
    }

    /// Sends the very same INTERACTION_CREATE again (a duplicate gateway event).
    pub fn replay_click(&self, id: u64, user: &User, message: &Value, custom_id: &str) {
        let channel: u64 = message["channel_id"].as_str().unwrap().parse().unwrap();
        let token = self.shared.inner.lock().unwrap().interactions[&id]
            .token
            .clone();
        let data = json!({"custom_id": custom_id, "component_type": 2});
        let v = self.interaction_json(id, &token, 3, user, channel, data, Some(message.clone()));
        self.send("INTERACTION_CREATE", v);
    }

    /// Picks a value in a select menu.
    pub fn select(&self, user: &User, message: &Value, custom_id: &str, value: &str) -> u64 {
        let channel: u64 = message["channel_id"].as_str().unwrap().parse().unwrap();
        let mid: u64 = message["id"].as_str().unwrap().parse().unwrap();
        let (id, token) = self.new_interaction(channel, Some(mid));
        let data = json!({"custom_id": custom_id, "component_type": 3, "values": [value]});
        let v = self.interaction_json(id, &token, 3, user, channel, data, Some(message.clone()));
        self.send("INTERACTION_CREATE", v);
        id
    }

    /// The user writes to the bot by DM. Returns the message id.
    pub fn dm(&self, user: &User, text: &str) -> u64 {
        self.shared.inner.lock().unwrap().users.insert(user.id);
        let id = self.shared.id();
        self.replay_dm(id, user, text);
        id
    }

    /// Sends MESSAGE_CREATE for a DM with this id (again, for a duplicate event).
    pub fn replay_dm(&self, id: u64, user: &User, text: &str) {
        let channel = self.dm_channel_for(user.id);
        let v = json!({
            "id": id.to_string(),
            "channel_id": channel.to_string(),
            "author": user.json(),
            "content": text,
            "timestamp": now_iso(),
            "edited_timestamp": null,
            "tts": false,
            "mention_everyone": false,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": false,
            "type": 0,
        });
        {
            let mut inner = self.shared.inner.lock().unwrap();
            inner.user_dm_ids.insert(id);
            if !inner.user_messages.iter().any(|m| m["id"] == v["id"]) {
                inner.user_messages.push(v.clone());
            }
        }
        self.send("MESSAGE_CREATE", v);
    }

    pub(super) fn dm_channel_for(&self, user: u64) -> u64 {
        let mut inner = self.shared.inner.lock().unwrap();
        if let Some(c) = inner.dm_channel_of.get(&user) {
            return *c;
        }
        let c = self.shared.id();
        inner.dm_channel_of.insert(user, c);
        inner.recipient_of.insert(c, user);
        c
    }

    /// Waits for the bot's answer to an interaction: the callback body, and for deferred
    /// answers the follow-up or edit that completed it.
    pub async fn response(&self, id: u64) -> Value {
        self.until(&format!("an answer to interaction {id}"), |i| {
            let it = i.interactions.get(&id)?;
            let r = it.response.clone()?;
            match r["type"].as_u64() {
                Some(5 | 6) => {
                    // Deferred: wait for the follow-up or edit.
                    let token = &it.token;
                    i.requests
                        .iter()
                        .rev()
                        .find(|q| {
                            q.path.contains(token.as_str())
                                && !q.path.ends_with("/callback")
                                && q.method != "GET"
                        })
                        .map(|q| {
                            // An edit cannot change what the deferral made ephemeral: the
                            // flags of the type-5 callback still hold, as on Discord.
                            let mut data = q.body.clone();
                            if data["flags"].is_null() && !r["data"]["flags"].is_null() {
                                data["flags"] = r["data"]["flags"].clone();
                            }
                            json!({"type": r["type"], "data": data})
                        })
                }
                _ => Some(r),
            }
        })
        .await
    }

    /// How long the bot took to acknowledge an interaction, on the fake's clock (which
    /// only the test moves): `None` until a callback is accepted.
    pub fn ack_time(&self, id: u64) -> Option<Duration> {
        let inner = self.shared.inner.lock().unwrap();
        let it = inner.interactions.get(&id)?;
        Some(it.acknowledged?.saturating_sub(it.dispatched))
    }

    /// Waits for the bot's first answer to an interaction (its callback), and returns
    /// when it arrived, in the order of the bot's requests (see [`FakeDiscord::request_count`]),
    /// with the callback's type (5 or 6 deferred, 4 a message, 8 choices, 9 a modal).
    pub async fn callback_arrival(&self, id: u64) -> (usize, u64) {
        self.until(&format!("a callback for interaction {id}"), |i| {
            let it = i.interactions.get(&id)?;
            Some((it.callback_at?, it.response.as_ref()?["type"].as_u64()?))
        })
        .await
    }

    /// How many callbacks the bot sent for an interaction.
    pub fn callbacks(&self, id: u64) -> usize {
        self.requests()
            .iter()
            .filter(|r| r.method == "POST" && r.path.contains(&format!("/interactions/{id}/")))
            .count()
    }

    /// The user's DM channel with the bot, opened if need be (for commands used in a DM).
    pub fn open_dm(&self, user: u64) -> u64 {
        self.dm_channel_for(user)
    }

    /// A `/race <sub>` slash command from a member of another server: `guild` replaces
    /// the fake's guild id. Returns the interaction id.
    pub fn slash_in_guild(
        &self,
        user: &User,
        channel: u64,
        guild: u64,
        sub: &str,
        options: &[(&str, Value)],
    ) -> u64 {
        self.shared.inner.lock().unwrap().guild_override = Some(guild);
        self.slash(user, channel, sub, options)
    }
    /// Submits a modal the bot opened from a button on `message` (interaction type 5):
    /// `values` are the (custom_id, text) of its text inputs. Returns the interaction id.
    pub fn modal_submit(
        &self,
        user: &User,
        message: &Value,
        custom_id: &str,
        values: &[(&str, &str)],
    ) -> u64 {
        let channel: u64 = message["channel_id"].as_str().unwrap().parse().unwrap();
        let mid: u64 = message["id"].as_str().unwrap().parse().unwrap();
        let (id, token) = self.new_interaction(channel, Some(mid));
        let rows: Vec<Value> = values
            .iter()
            .map(|(input, text)| {
                json!({"type": 1, "components": [{"type": 4, "custom_id": input, "value": text}]})
            })
            .collect();
        let data = json!({"custom_id": custom_id, "components": rows});
        let v = self.interaction_json(id, &token, 5, user, channel, data, Some(message.clone()));
        self.send("INTERACTION_CREATE", v);
        id
    }

    /// A user context-menu command (`name`, as the member's Apps menu shows it) used on
    /// `target` (interaction type 2, command type 2). Returns the interaction id.
    pub fn user_command(&self, user: &User, channel: u64, name: &str, target: &User) -> u64 {
        let (id, token) = self.new_interaction(channel, None);
        let uid = target.id.to_string();
        let mut member = target.member();
        if let Some(o) = member.as_object_mut() {
            o.remove("user");
        }
        let data = json!({
            "id": COMMAND_ID.to_string(),
            "name": name,
            "type": 2,
            "target_id": uid,
            "resolved": {"users": {uid.clone(): target.json()}, "members": {uid: member}},
        });
        let v = self.interaction_json(id, &token, 2, user, channel, data, None);
        self.send("INTERACTION_CREATE", v);
        id
    }

    /// Checks a modal callback (type 9) against Discord's documented limits, beyond what the
    /// OpenAPI schema holds: a title of 1 to 45 characters, a custom_id of 1 to 100, 1 to 5
    /// action rows each holding one text input (style 1 or 2) with a label of 1 to 45, a
    /// placeholder of 100 at most, a value and lengths of 4000 at most, and min <= max.
    /// Returns the text inputs as (custom_id, prefilled value).
    pub fn check_modal(answer: &Value) -> Result<Vec<(String, String)>, String> {
        if answer["type"] != 9 {
            return Err(format!("not a modal (callback type 9): {answer}"));
        }
        let d = &answer["data"];
        let len = |v: &Value| v.as_str().map(|s| s.chars().count()).unwrap_or(0);
        if !(1..=45).contains(&len(&d["title"])) {
            return Err("a modal title of 1 to 45 characters".into());
        }
        if !(1..=100).contains(&len(&d["custom_id"])) {
            return Err("a modal custom_id of 1 to 100 characters".into());
        }
        let rows = d["components"].as_array().cloned().unwrap_or_default();
        if rows.is_empty() || rows.len() > 5 {
            return Err("a modal holds 1 to 5 action rows".into());
        }
        let mut inputs = Vec::new();
        for row in rows {
            let items = row["components"].as_array().cloned().unwrap_or_default();
            if row["type"] != 1 || items.len() != 1 || items[0]["type"] != 4 {
                return Err(format!("each modal row holds one text input: {row}"));
            }
            let t = &items[0];
            if !matches!(t["style"].as_u64(), Some(1 | 2)) {
                return Err("a text input's style is 1 or 2".into());
            }
            if !(1..=45).contains(&len(&t["label"])) || !(1..=100).contains(&len(&t["custom_id"])) {
                return Err("a text input's label is 1 to 45, its custom_id 1 to 100".into());
            }
            if len(&t["placeholder"]) > 100 || len(&t["value"]) > 4000 {
                return Err("a text input's placeholder is 100 at most, its value 4000".into());
            }
            let (min, max) = (t["min_length"].as_u64(), t["max_length"].as_u64());
            if min.is_some_and(|m| m > 4000) || max.is_some_and(|m| !(1..=4000).contains(&m)) {
                return Err("text input lengths of 4000 at most".into());
            }
            if let (Some(a), Some(b)) = (min, max)
                && a > b
            {
                return Err("min_length over max_length".into());
            }
            if let Some(b) = max
                && len(&t["value"]) as u64 > b
            {
                return Err("a prefilled value over max_length".into());
            }
            inputs.push((
                t["custom_id"].as_str().unwrap_or("").to_string(),
                t["value"].as_str().unwrap_or("").to_string(),
            ));
        }
        Ok(inputs)
    }
}
