//! The little of sqlx that the shared store code uses, for either backend: a statement with
//! its arguments ([`Stmt`]), the values it binds ([`Arg`]), and typed reads of a row's
//! columns ([`Get`]).
//!
//! sqlx's generic API asks every generic function for a long list of bounds (each value
//! type encodable, each row's columns decodable, a connection that executes). Rust does not
//! carry such bounds from a trait to its users, so they are written once here, on the
//! blanket impls of [`Sql`] and [`Get`], and the store's code asks only `DB: Dialect`. It
//! compiles to the same calls as code written for one backend. (`sqlx::Any` would need no
//! bounds, but converts every argument and row at run time: measured slower per order on
//! both backends, and it cannot read SQLite's integer flags as booleans.)
//!
//! Statements use `$1`, `$2`, ... placeholders on both backends: PostgreSQL's own, and
//! SQLite reads `$N` as parameter N.
//!
//! Nothing here imports the rest of the store: the backends, the commit sequence and the
//! queries all stand on it.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use sqlx::postgres::PgQueryResult;
use sqlx::query::Query;
use sqlx::sqlite::SqliteQueryResult;
use sqlx::{ColumnIndex, Database, Decode, Encode, Executor, IntoArguments, Row, SqlSafeStr, Type};

/// What sqlx's executors return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A value to bind: the column types the schema uses.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg<'a> {
    Int(i64),
    OptInt(Option<i64>),
    Text(Cow<'a, str>),
    OptText(Option<Cow<'a, str>>),
    /// A flag: BOOLEAN on PostgreSQL, 0 or 1 on SQLite.
    Flag(bool),
}

impl From<i64> for Arg<'_> {
    fn from(v: i64) -> Self {
        Arg::Int(v)
    }
}

impl From<Option<i64>> for Arg<'_> {
    fn from(v: Option<i64>) -> Self {
        Arg::OptInt(v)
    }
}

impl From<bool> for Arg<'_> {
    fn from(v: bool) -> Self {
        Arg::Flag(v)
    }
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(v: &'a str) -> Self {
        Arg::Text(Cow::Borrowed(v))
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(v: &'a String) -> Self {
        Arg::Text(Cow::Borrowed(v))
    }
}

impl From<String> for Arg<'_> {
    fn from(v: String) -> Self {
        Arg::Text(Cow::Owned(v))
    }
}

impl<'a> From<Option<&'a str>> for Arg<'a> {
    fn from(v: Option<&'a str>) -> Self {
        Arg::OptText(v.map(Cow::Borrowed))
    }
}

impl<'a> From<&'a Option<String>> for Arg<'a> {
    fn from(v: &'a Option<String>) -> Self {
        Arg::OptText(v.as_deref().map(Cow::Borrowed))
    }
}

impl From<Option<String>> for Arg<'_> {
    fn from(v: Option<String>) -> Self {
        Arg::OptText(v.map(Cow::Owned))
    }
}

/// How many rows a statement changed: each backend's result says it in its own type.
pub trait Changed {
    fn changed(&self) -> u64;
}

impl Changed for SqliteQueryResult {
    fn changed(&self) -> u64 {
        self.rows_affected()
    }
}

impl Changed for PgQueryResult {
    fn changed(&self) -> u64 {
        self.rows_affected()
    }
}

/// A sqlx database with every bound the shared code needs (implemented for any such).
pub trait Sql: Database<Row: Get, QueryResult: Changed> {
    fn bind<'q>(
        query: Query<'q, Self, Self::Arguments>,
        arg: Arg<'_>,
    ) -> Query<'q, Self, Self::Arguments>;

    fn execute<'c>(
        conn: &'c mut Self::Connection,
        query: Query<'c, Self, Self::Arguments>,
    ) -> BoxFuture<'c, Result<Self::QueryResult, sqlx::Error>>;

    fn fetch_all<'c>(
        conn: &'c mut Self::Connection,
        query: Query<'c, Self, Self::Arguments>,
    ) -> BoxFuture<'c, Result<Vec<Self::Row>, sqlx::Error>>;

    fn fetch_optional<'c>(
        conn: &'c mut Self::Connection,
        query: Query<'c, Self, Self::Arguments>,
    ) -> BoxFuture<'c, Result<Option<Self::Row>, sqlx::Error>>;
}

impl<DB> Sql for DB
where
    DB: Database<Row: Get, QueryResult: Changed>,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    DB::Arguments: IntoArguments<DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB> + Type<DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> Option<&'q str>: Encode<'q, DB> + Type<DB>,
    for<'q> bool: Encode<'q, DB> + Type<DB>,
{
    fn bind<'q>(query: Query<'q, DB, DB::Arguments>, arg: Arg<'_>) -> Query<'q, DB, DB::Arguments> {
        match arg {
            Arg::Int(v) => query.bind(v),
            Arg::OptInt(v) => query.bind(v),
            Arg::Text(v) => query.bind(v.as_ref()),
            Arg::OptText(v) => query.bind(v.as_deref()),
            Arg::Flag(v) => query.bind(v),
        }
    }

    fn execute<'c>(
        conn: &'c mut DB::Connection,
        query: Query<'c, DB, DB::Arguments>,
    ) -> BoxFuture<'c, Result<DB::QueryResult, sqlx::Error>> {
        conn.execute(query)
    }

    fn fetch_all<'c>(
        conn: &'c mut DB::Connection,
        query: Query<'c, DB, DB::Arguments>,
    ) -> BoxFuture<'c, Result<Vec<DB::Row>, sqlx::Error>> {
        conn.fetch_all(query)
    }

    fn fetch_optional<'c>(
        conn: &'c mut DB::Connection,
        query: Query<'c, DB, DB::Arguments>,
    ) -> BoxFuture<'c, Result<Option<DB::Row>, sqlx::Error>> {
        conn.fetch_optional(query)
    }
}

/// Typed reads of a row's columns by name.
pub trait Get {
    fn int(&self, column: &str) -> Result<i64, sqlx::Error>;
    fn opt_int(&self, column: &str) -> Result<Option<i64>, sqlx::Error>;
    fn text(&self, column: &str) -> Result<String, sqlx::Error>;
    fn opt_text(&self, column: &str) -> Result<Option<String>, sqlx::Error>;
    /// A flag: BOOLEAN on PostgreSQL, an integer (non-zero is true) on SQLite.
    fn flag(&self, column: &str) -> Result<bool, sqlx::Error>;
    fn bytes(&self, column: &str) -> Result<Vec<u8>, sqlx::Error>;
}

impl<R> Get for R
where
    R: Row,
    for<'a> &'a str: ColumnIndex<R>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> bool: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> Vec<u8>: Decode<'r, R::Database> + Type<R::Database>,
{
    fn int(&self, column: &str) -> Result<i64, sqlx::Error> {
        self.try_get(column)
    }

    fn opt_int(&self, column: &str) -> Result<Option<i64>, sqlx::Error> {
        self.try_get(column)
    }

    fn text(&self, column: &str) -> Result<String, sqlx::Error> {
        self.try_get(column)
    }

    fn opt_text(&self, column: &str) -> Result<Option<String>, sqlx::Error> {
        self.try_get(column)
    }

    fn flag(&self, column: &str) -> Result<bool, sqlx::Error> {
        self.try_get(column)
    }

    fn bytes(&self, column: &str) -> Result<Vec<u8>, sqlx::Error> {
        self.try_get(column)
    }
}

/// A statement and its arguments, run on a connection of the backend `DB`.
pub(super) struct Stmt<DB: Database> {
    query: Query<'static, DB, DB::Arguments>,
}

impl<DB: Sql> Stmt<DB> {
    pub fn new(sql: impl SqlSafeStr) -> Self {
        Stmt {
            query: sqlx::query(sql),
        }
    }

    pub fn bind<'a>(self, arg: impl Into<Arg<'a>>) -> Self {
        Stmt {
            query: DB::bind(self.query, arg.into()),
        }
    }

    /// Runs it; returns how many rows it changed.
    pub async fn execute(self, conn: &mut DB::Connection) -> Result<u64, sqlx::Error> {
        Ok(DB::execute(conn, self.query).await?.changed())
    }

    pub async fn fetch_all(self, conn: &mut DB::Connection) -> Result<Vec<DB::Row>, sqlx::Error> {
        DB::fetch_all(conn, self.query).await
    }

    pub async fn fetch_optional(
        self,
        conn: &mut DB::Connection,
    ) -> Result<Option<DB::Row>, sqlx::Error> {
        DB::fetch_optional(conn, self.query).await
    }

    /// The one row it returns; an error if none.
    pub async fn fetch_one(self, conn: &mut DB::Connection) -> Result<DB::Row, sqlx::Error> {
        DB::fetch_optional(conn, self.query)
            .await?
            .ok_or(sqlx::Error::RowNotFound)
    }
}
