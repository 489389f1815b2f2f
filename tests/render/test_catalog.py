"""The pictures' catalog reader (render/catalog.py)."""

from __future__ import annotations

import pytest

from render import catalog

DOMAINS = sorted(p.name for p in catalog.LOCALES.iterdir() if p.is_dir() and (p / "fr.ftl").exists())


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_messages_that_choose_a_variant_are_found_without_parsing_the_catalog(domain, lang):
    """Issue 27: parsing Limit's catalog to learn which messages choose a plural cost 0.1 s of a worker's
    first Limit picture (its animated summary's too). They are now read off the text: exactly the
    messages whose parsed form holds a select expression, in every catalog; and the catalog is parsed
    only for such a message's words."""
    catalog._bundle.cache_clear()
    found = catalog._selecting(domain, lang)
    assert catalog._bundle.cache_info().currsize == 0  # nothing parsed
    assert found == catalog._bundle(domain, lang)[1]
    for key in found:
        assert catalog.selects(domain, lang, key.replace("-", ".", 1))


def test_a_plural_is_still_chosen_by_the_language_s_rules():
    assert catalog.selects("limit", "fr", "label.gain") and not catalog.selects("limit", "fr", "label.round")
    assert catalog.message("limit", "fr", "label.gain", gain=0) == "0 point"  # French: 0 and 1 singular
    assert catalog.message("limit", "fr", "label.gain", gain=5) == "5 points"
    assert catalog.message("limit", "en", "label.gain", gain=0) == "0 points"
