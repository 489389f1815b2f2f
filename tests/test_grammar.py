"""French and English agreement in the sentences players complained about (issue 25): plurals,
zero, solo tables, letters shown as letters, no gendered words about players."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot import i18n
from bot.narrate import narrate


def test_a_move_of_one_cell_is_singular():
    one = i18n.t("tectonic.error.too_far", "fr", **{"from": "E2", "to": "E4"}, piece="colline", max=1)
    assert one.endswith("au plus 1 case."), one
    assert i18n.t("tectonic.error.too_far", "fr", **{"from": "C2", "to": "C7"}, piece="mont", max=4).endswith(
        "au plus 4 cases.")


@pytest.mark.parametrize("spain,england,french", [
    (11, 1, "11 prises espagnoles, 1 anglaise"), (11, 0, "11 prises espagnoles, 0 anglaise"),
    (1, 11, "1 prise espagnole, 11 anglaises"),
])
def test_armada_captures_agree(spain, england, french):
    text = i18n.t("armada.event.round_over", "fr", round=1, winner="Alice", spain_captures=spain,
                  england_captures=england, points=3)
    assert f"({french})" in text, text
    english = i18n.t("armada.event.round_over", "en", round=1, winner="Alice", spain_captures=1,
                     england_captures=11, points=3)
    assert "(1 Spanish capture, 11 English)" in english, english


def test_a_bust_with_nothing_to_lose_says_so():
    assert i18n.t("ludix.event.bust", "fr", seat="Alice", faces="LVVI", lost=0).endswith("Aucun point perdu.")
    assert i18n.t("ludix.event.bust", "en", seat="Alice", faces="LVVI", lost=0).endswith("No points lost.")


def test_the_last_round_is_announced_in_words():
    (line,) = narrate("ludix", [{"type": "target_reached", "seat": 0, "target": 150}], ["Alice"], "fr")
    assert "Alice atteint l'objectif (150)" in line and "dernier tour" in line
    (line,) = narrate("ludix", [{"type": "target_reached", "seat": 0, "target": 150}], ["Alice"], "en")
    assert "reaches the target (150)" in line and "last round" in line
    # reached by the last seat of the lap: the game ends with this move, no "last round" is announced
    over = [{"type": "target_reached", "seat": 1, "target": 50}, {"type": "game_over", "winners": [1]}]
    first, _ = narrate("ludix", over, ["Alice", "Bruno"], "fr")
    # (the card's ranking says that the game is over: the narration does not say it again, issue 36)
    assert first == "🔔 Bruno atteint l'objectif (50) et ferme le tour de table."
    first, _ = narrate("ludix", over, ["Alice", "Bruno"], "en")
    assert first == "🔔 Bruno reaches the target (50) and closes the round."


def test_ending_a_single_word_turn_is_not_passing():
    (line,) = narrate("ludime", [{"type": "passed", "seat": 0}], ["Alice"], "fr")
    assert line == "Alice finit son tour."
    (line,) = narrate("ludime", [{"type": "passed", "seat": 0}], ["Alice"], "en")
    assert line == "Alice ends their turn."


def test_exchanged_letters_read_as_letters():
    (line,) = narrate("ludime", [{"type": "exchanged_cards", "seat": 0, "returned": ["H", "Z"],
                                  "received": ["E", "N"], "private_to": 0}], ["Alice"], "fr", viewer=0)
    assert line == "Vous rendez les lettres H, Z et recevez E, N."


def test_solo_tables_say_no_one_is_waiting():
    assert i18n.t("ranta.event.placed", "fr", seat="Alice", round=1, waiting=0) == \
        "Alice a fini de ranger pour la manche 1."
    assert "(1 joueur en attente)" in i18n.t("ranta.event.placed", "fr", seat="Alice", round=1, waiting=1)
    solo = i18n.t("ranta.prompt.confirmed_closed", "fr", round=2, players=1)
    assert "Tout le monde" not in solo and "manche 2" in solo
    assert "Tout le monde" in i18n.t("ranta.prompt.confirmed_closed", "fr", round=2, players=3)
    assert "Everyone" not in i18n.t("ranta.prompt.confirmed_closed", "en", round=2, players=1)
    (line,) = narrate("limit", [{"type": "round_closed", "round": 3, "tile": "9-5-1", "placements": [],
                                 "boards": 1}], ["Alice"], "fr")
    assert line == "Tuile 3 (9-5-1) posée."
    assert "Tout le monde" in narrate("limit", [{"type": "round_closed", "round": 3, "tile": "9-5-1",
                                                 "placements": [], "boards": 2}], ["Alice", "Bruno"], "fr")[0]


def test_a_series_of_one_game_does_not_count_games():
    assert narrate("limit", [{"type": "game_scored", "game": 1, "games": 1}], ["Alice"], "fr") == []
    assert narrate("limit", [{"type": "game_scored", "game": 1, "games": 3}], ["Alice"], "fr") == [
        "Partie 1/3 terminée\u00a0: voici les scores."]


def test_moving_no_tile_is_said_plainly():
    (line,) = narrate("limit", [{"type": "relocated", "seat": 0, "moved": 0, "gain": 0, "moves": []}],
                      ["Alice"], "fr")
    assert line == "Alice laisse les tuiles de sa grande orchidée en place."
    (line,) = narrate("limit", [{"type": "relocated", "seat": 0, "moved": 1, "gain": 5, "moves": []}],
                      ["Alice"], "fr")
    assert line == "Alice a déplacé 1 tuile de la grande orchidée (5 points)."


@pytest.mark.parametrize("key", ["lobby.error.already_joined", "lobby.error.not_joined", "common.label.private_view",
                                 "lobby.error.not_enough", "ranta.error.removed", "lutinades.error.removed",
                                 "lutinades.label.how_to", "lutinades.label.your_card"])
def test_no_gendered_word_about_the_player(key):
    text = i18n.t(key, "fr", id=3)
    for word in ("inscrit", "seul ", "seule ", "seuls ", "retiré ", "retirée "):
        assert word not in text, text


def test_a_short_deck_is_told_as_a_shortfall():
    (line,) = narrate("lutinades", [{"type": "gained", "seat": 1, "count": 0, "wanted": 2, "total": 8}],
                      ["Alice", "Bruno"], "fr")
    assert line == "La pioche est épuisée\u00a0: Bruno ne cueille rien."


def test_tectonic_moves_read_as_sentences_in_both_languages():
    from cogs.tectonic.cog import TectonicCog
    for piece, french in (("colline", "Alice déplace sa colline de E2 à E3."),
                          ("pic", "Alice déplace son pic de E2 à E3."), ("mont", "Alice déplace son mont de E2 à E3.")):
        told = TectonicCog._told([{"type": "moved", "seat": 0, "piece": piece, "from": "E2", "to": "E3"}], "fr")
        assert narrate("tectonic", told, ["Alice"], "fr") == [french]
    told = TectonicCog._told([{"type": "moved", "seat": 0, "piece": "colline", "from": "E2", "to": "E3"}], "en")
    assert narrate("tectonic", told, ["Alice"], "en") == ["Alice moves a hill from E2 to E3."]


@pytest.mark.parametrize("lang,fixed,expected", [("fr", True, "Joueurs (1 sur 2)\u00a0:"), ("fr", False, "Joueurs (1, de 2 à 6)\u00a0:"),
                                                 ("en", True, "Players (1 of 2):"), ("en", False, "Players (1 of 2 to 6):")])
def test_a_lobby_counts_its_players_as_people_read_it(lang, fixed, expected):
    text = i18n.t("common.lobby.text", lang, game="Tectonic", id=3, creator="<@1>", count=1, min=2,
                  max=2 if fixed else 6, seats="1. Alice", options="-", fixed="yes" if fixed else "no",
                  reserved="none")
    assert text.split("\n")[1] == expected


@pytest.mark.parametrize("lang,reserved,expected", [
    ("fr", "none", "Cliquez sur « Rejoindre » pour prendre place\u202f; le créateur lance la partie."),
    ("fr", "<@2>", "Seul <@2> peut rejoindre\u00a0: la partie commence dès son arrivée."),
    ("en", "none", "Click “Join” to take a seat; the creator starts the game."),
    ("en", "<@2>", "Only <@2> can join: the game starts as soon as they do.")])
def test_a_challenge_lobby_says_it_starts_when_its_member_joins(lang, reserved, expected):
    from bot.safe import Safe

    text = i18n.t("common.lobby.text", lang, game="Tectonic", id=3, creator="<@1>", count=1, min=2, max=2,
                  seats="1. Alice", options="-", fixed="yes", reserved=Safe(reserved))
    assert text.split("\n")[-1] == expected


def test_an_ai_seat_names_its_level():
    from bot.gamecog import level_name

    assert i18n.t("table.lobby.ai", "fr", level=level_name((1, 3), 2)) == "IA, Moyen"
    assert i18n.t("table.lobby.ai", "fr", level=level_name((1, 2), 2)) == "IA, Difficile"
    assert i18n.t("table.lobby.ai", "en", level=level_name((1, 2), 1)) == "AI, Easy"


def test_every_lobby_names_its_variant_option_the_same_way():
    """« Options : variante : … » in Ludime's lobby and in the Lutinades' (one was « Variante »)."""
    from cogs.ludime.cog import LudimeCog
    from cogs.lutinades.cog import LutinadesCog

    for lang, word in (("fr", "variante\u00a0: "), ("en", "variant: ")):
        for cls, options in ((LudimeCog, {"variant": "main"}), (LutinadesCog, {"variante": "standard"})):
            row = SimpleNamespace(options=options)
            assert cls.options_text(cls.__new__(cls), row, lang).startswith(word), (cls, lang)


def test_a_relative_time_is_never_put_after_a_preposition():
    """Discord writes ``<t:…:R>`` as « dans 12 heures » / « il y a 3 heures » (“in 12 hours”, “3 hours
    ago”): « avant dans 12 heures », « depuis il y a 3 heures », “until in 12 hours” read wrong. The
    parameters that carry such a timestamp (``since``, ``due``, ``relative``, ``when``) neither."""
    import re

    wrong = re.compile(r"\b(avant|jusqu'à|jusqu'au|depuis|until|since|before|after|après)\s+"
                       r"(<t:[^>]*:R>|\{ \$(since|due|relative|when) \})", re.IGNORECASE)
    found = [(lang, key) for lang in i18n.LANGS for key, text in i18n.catalog(lang).items() if wrong.search(text)]
    assert found == []
    assert wrong.search("Réponse attendue avant <t:{ $due }:R>") and wrong.search("depuis { $since }")
