//! 1500m's rulebook example, scenario tests and the random-simulation test.

use super::*;
