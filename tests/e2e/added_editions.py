"""One copy of the site with every edition and notice the real site lacks.

A translator's steps ("Add a language" in CONTRIBUTING.md), taken on a copy:

- a Japanese edition, its home page translated, every other page falling
  back to English (``test_third_edition.py``);
- a Persian one, served in English under notices in Persian: a language
  lunr cannot stem (``test_third_edition.py``);
- an Arabic one, right to left, with one chapter, its exercise page and the
  cue figures' labels translated for real (``rtl/``, ``test_rtl_edition.py``);
- in the Chinese edition, a translation made outdated by an edit of its
  English page and one deleted (``test_build.py``'s notices).

The copy is built once per run, PDFs and notebooks included, from the real
build's cache (:func:`helpers.shared_copy_build`); each module serves or
reads the same folder.
"""

import re
import shutil
from pathlib import Path

from helpers import ROOT, add_edition, translations

# Japanese: the catalog's words a reader meets first; the rest stay as copied
# from English, which the catalog check allows (it checks keys and fields).
JA_NAME = "日本語"
JA_WORDS = {
    "untranslated_title": "このページはまだ翻訳されていません",
    "not_found_title": "ページが見つかりません",
    "book_contents": "目次",
    "download_pdf": "日本語版 PDF",
}
JA_TITLE = "注意のしくみ"
# No search setting: i18n adds the language to the search plugin's.
JA_ENTRY = f"        - locale: ja\n          name: {JA_NAME}\n          build: true"

# Persian: lunr has no stemmer for it, and no other edition's word filter
# keeps its letters (Japanese's and Chinese's keep theirs only), yet its words
# must be found.
FA_ENTRY = "        - locale: fa\n          name: فارسی\n          build: true"
FA_WORDS = {"untranslated_title": "این صفحه هنوز به فارسی ترجمه نشده است"}
FA_TITLE = "توجه، از نشانه‌ها تا رگرسیون هسته‌ای"

# Arabic: one chapter and its exercise page translated (rtl/), the others
# falling back to English.
AR_FILES = ROOT / "tests" / "e2e" / "rtl"
AR_TRANSLATED = ("attention-cues", "exercises/attention-cues")
AR_ENTRY = """
        - locale: ar
          name: العربية
          build: true
          site_description: >-
            شرح لآليات الانتباه من إشارات الانتباه إلى انحدار النواة.
          nav_translations:
            Chapters: الفصول
            Exercises: التمارين
            Reference: المراجع
"""
AR_WORDS = {
    "exercises_heading": "تمارين",
    "untranslated_title": "لم تُترجَم هذه الصفحة بعد",
    "outdated_title": "قد تكون هذه الترجمة قديمة",
    "not_found_title": "الصفحة غير موجودة",
    "download_pdf": "النسخة العربية بصيغة PDF",
    "run_yourself_title": "شغّله بنفسك",
    # A Latin run with punctuation, isolated as CONTRIBUTING says.
    "download_notebook": "تنزيل الدفتر (\u2066.ipynb\u2069)",
    "download_all": "كل دفاتر التمارين (\u2066.zip\u2069)",
}

# The Chinese edition's notices: a page whose English text changed after its
# translation was marked (no other edition translates it), and one whose
# translation is gone.
OUTDATED = "kernel-regression-further"
OUTDATED_EDIT = ("The same weights do more.", "The same weights can do more.")
MISSING = "glossary"

# The editions' order in the copy's mkdocs.yml (each is put before zh's).
ORDER = ("en", "ja", "fa", "ar", "zh")


def translate_home(project: Path, lang: str, title: str) -> None:
    """The home page, its title translated (the rest may follow in English:
    the translation checks compare structure, not words), marked done."""
    english = (project / "docs" / "index.md").read_text("utf-8")
    translated, titled = re.subn(r"^# .*$", f"# {title}", english, count=1, flags=re.M)
    assert titled == 1
    (project / "docs" / f"index.{lang}.md").write_text(translated, "utf-8")
    mark(project, f"docs/index.{lang}.md")


def mark(project: Path, page: str) -> None:
    marked = translations(project, "mark", page)
    assert marked.returncode == 0, marked.stderr


def add_japanese(project: Path) -> None:
    """Steps 1 to 4 of "Add a language", for Japanese."""
    add_edition(project, JA_ENTRY, "ja", JA_WORDS)
    translate_home(project, "ja", JA_TITLE)


def add_arabic(project: Path) -> None:
    """Steps 1 to 4 of "Add a language", for a right-to-left language."""
    add_edition(project, AR_ENTRY, "ar", AR_WORDS)
    labels = project / "src" / "attention_docs" / "labels" / "ar.py"
    shutil.copy(AR_FILES / "labels_ar.py", labels)
    for page in AR_TRANSLATED:
        shutil.copy(AR_FILES / f"{page}.ar.md", project / "docs" / f"{page}.ar.md")
        mark(project, f"docs/{page}.ar.md")


def age_chinese(project: Path) -> None:
    """An English edit after the Chinese translation, and a translation deleted."""
    english = project / "docs" / f"{OUTDATED}.md"
    text = english.read_text("utf-8")
    assert text.count(OUTDATED_EDIT[0]) == 1, f"{OUTDATED}.md changed: edit it anew"
    english.write_text(text.replace(*OUTDATED_EDIT), "utf-8")
    (project / "docs" / f"{MISSING}.zh.md").unlink()


def add_editions(project: Path) -> None:
    """Every change above, on one copy of the site."""
    add_japanese(project)
    add_edition(project, FA_ENTRY, "fa", FA_WORDS)
    translate_home(project, "fa", FA_TITLE)
    add_arabic(project)
    age_chinese(project)
