"""Reads the articles a Quarry index stores, for peers that search a Quarry
index with Xapian's own tools (lib/index/article_store.h says how they are
kept): value slot 7 of each document, a byte saying how the rest is kept
(0: as it is, 1: a zstd frame, compressed with the dictionary held in the
index's metadata when the frame names one), then the fields, each its length
in bytes (seven bits a byte, high bit set on all but the last) and its UTF-8
bytes, in the order id, title, body, date, category, source.

Needs python3-zstandard.
"""

import zstandard

ARTICLE_SLOT = 7
DICTIONARY_KEY = "quarry.text_dictionary"
FIELDS = ("id", "title", "body", "date", "category", "source")


class ArticleReader:
    def __init__(self, db):
        dictionary = db.get_metadata(DICTIONARY_KEY)
        self.decompressor = zstandard.ZstdDecompressor(
            dict_data=zstandard.ZstdCompressionDict(dictionary) if dictionary else None)

    def article(self, document):
        """The fields of the article `document` stores, as a dict."""
        data = document.get_value(ARTICLE_SLOT)
        data = self.decompressor.decompress(data[1:]) if data[:1] == b"\x01" else data[1:]
        fields, at = [], 0
        while at < len(data):
            size, shift = 0, 0
            while True:
                byte = data[at]
                at += 1
                size |= (byte & 0x7F) << shift
                shift += 7
                if not byte & 0x80:
                    break
            fields.append(data[at:at + size].decode("utf-8", "replace"))
            at += size
        return dict(zip(FIELDS, fields))
