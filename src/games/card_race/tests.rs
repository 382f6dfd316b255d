//! Card-race scenario tests.

#[test]
fn sizes() {
    eprintln!(
        "game {} phase {} options {} rng {} team {}",
        std::mem::size_of::<super::CardRace>(),
        std::mem::size_of::<super::Phase>(),
        std::mem::size_of::<super::Options>(),
        std::mem::size_of::<crate::engine::GameRng>(),
        std::mem::size_of::<super::Team>()
    );
}
