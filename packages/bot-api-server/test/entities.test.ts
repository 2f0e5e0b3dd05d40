import type { User } from "@grammyjs/types";
import { describe, expect, it } from "vitest";
import type { EntityContext } from "../src/entities-common.ts";
import { detectEntities } from "../src/entities-detect.ts";
import { parseHtml } from "../src/entities-html.ts";
import { parseMarkdown, parseMarkdownV2 } from "../src/entities-markdown.ts";
import { formatText, MESSAGE_TEXT } from "../src/formatting.ts";

const budi: User = { id: 42, is_bot: false, first_name: "Budi" };
const ctx: EntityContext = { user: (id) => (id === 42 ? budi : undefined) };

describe("HTML parse mode", () => {
  it("turns tags into entities at UTF-16 offsets", () => {
    expect(parseHtml("<b>Halo</b> <i>dunia</i> <u>u</u> <s>s</s> <code>c</code>", ctx)).toEqual({
      text: "Halo dunia u s c",
      entities: [
        { type: "bold", offset: 0, length: 4 },
        { type: "italic", offset: 5, length: 5 },
        { type: "underline", offset: 11, length: 1 },
        { type: "strikethrough", offset: 13, length: 1 },
        { type: "code", offset: 15, length: 1 },
      ],
    });
    // an emoji is two UTF-16 units
    expect(parseHtml("😀 <strong>x</strong>", ctx).entities).toEqual([
      { type: "bold", offset: 3, length: 1 },
    ]);
  });

  it("supports the aliases, nesting, spoilers, quotes, links and pre with a language", () => {
    const parsed = parseHtml(
      '<em><ins>a</ins></em><del>b</del><strike>c</strike><tg-spoiler>d</tg-spoiler><span class="tg-spoiler">e</span>' +
        '<blockquote expandable>f</blockquote><a href="https://Kios.example/x?a=1&amp;b=2">g</a>' +
        '<a href="tg://user?id=42">h</a><pre><code class="language-ts">i</code></pre><pre>j</pre>',
      ctx,
    );
    expect(parsed.text).toBe("abcdefghij");
    expect(parsed.entities).toEqual([
      { type: "italic", offset: 0, length: 1 },
      { type: "underline", offset: 0, length: 1 },
      { type: "strikethrough", offset: 1, length: 1 },
      { type: "strikethrough", offset: 2, length: 1 },
      { type: "spoiler", offset: 3, length: 1 },
      { type: "spoiler", offset: 4, length: 1 },
      { type: "expandable_blockquote", offset: 5, length: 1 },
      { type: "text_link", offset: 6, length: 1, url: "https://kios.example/x?a=1&b=2" },
      { type: "text_mention", offset: 7, length: 1, user: budi },
      { type: "pre", offset: 8, length: 1, language: "ts" },
      { type: "pre", offset: 9, length: 1 },
    ]);
  });

  it("decodes the four named entities and numeric ones, and leaves unknown ones alone", () => {
    expect(parseHtml("&lt;a&gt; &amp; &quot; &#65;&#x42; &nbsp; &copy", ctx).text).toBe(
      '<a> & " AB &nbsp; &copy',
    );
  });

  it("reports syntax errors with TDLib's texts and UTF-8 byte offsets", () => {
    const error = (text: string) => {
      try {
        parseHtml(text, ctx);
      } catch (err) {
        return (err as Error).message;
      }
      return "parsed";
    };
    expect(error("hi <foo>x</foo>")).toBe('Unsupported start tag "foo" at byte offset 3');
    expect(error("é <br>")).toBe('Unsupported start tag "br" at byte offset 3');
    expect(error("a < b")).toBe('Unsupported start tag "" at byte offset 2');
    expect(error("<b>bold")).toBe('Can\'t find end tag corresponding to start tag "b"');
    expect(error("x</b>")).toBe("Unexpected end tag at byte offset 1");
    expect(error("<b>x</i>")).toBe(
      'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"',
    );
    expect(error("<b")).toBe("Unclosed start tag at byte offset 0");
    expect(error("<span>x</span>")).toBe(
      'Tag "span" must have class "tg-spoiler" at byte offset 0',
    );
  });
});

describe("MarkdownV2 parse mode", () => {
  it("parses bold, italic, underline, strikethrough, spoiler, code, pre and links", () => {
    expect(
      parseMarkdownV2(
        "*b* _i_ __u__ ~s~ ||sp|| `c` ```python\nprint()\n``` [t](https://a.example/)",
        ctx,
      ),
    ).toEqual({
      text: "b i u s sp c print()\n t",
      entities: [
        { type: "bold", offset: 0, length: 1 },
        { type: "italic", offset: 2, length: 1 },
        { type: "underline", offset: 4, length: 1 },
        { type: "strikethrough", offset: 6, length: 1 },
        { type: "spoiler", offset: 8, length: 2 },
        { type: "code", offset: 11, length: 1 },
        { type: "pre", offset: 13, length: 8, language: "python" },
        { type: "text_link", offset: 22, length: 1, url: "https://a.example/" },
      ],
    });
  });

  it("nests entities and honours escapes", () => {
    expect(parseMarkdownV2("*bold _both_*", ctx).entities).toEqual([
      { type: "bold", offset: 0, length: 9 },
      { type: "italic", offset: 5, length: 4 },
    ]);
    expect(parseMarkdownV2("Rp 10\\.000 \\(promo\\) \\*1\\* a\\_b", ctx)).toEqual({
      text: "Rp 10.000 (promo) *1* a_b",
      entities: [],
    });
    // inside code only ` and \ need escaping
    expect(parseMarkdownV2("`a.b_c*d \\` e`", ctx)).toEqual({
      text: "a.b_c*d ` e",
      entities: [{ type: "code", offset: 0, length: 11 }],
    });
    expect(parseMarkdownV2("[a\\]b](https://x.example/\\)y)", ctx).entities).toEqual([
      { type: "text_link", offset: 0, length: 3, url: "https://x.example/)y" },
    ]);
  });

  it("parses block quotes at line starts", () => {
    expect(parseMarkdownV2(">one\n>two\nthree", ctx)).toEqual({
      text: "one\ntwo\nthree",
      entities: [{ type: "blockquote", offset: 0, length: 7 }],
    });
  });

  it("refuses unescaped reserved characters and unclosed entities", () => {
    const error = (text: string) => {
      try {
        parseMarkdownV2(text, ctx);
      } catch (err) {
        return (err as Error).message;
      }
      return "parsed";
    };
    expect(error("Harga Rp 10.000")).toBe(
      "Character '.' is reserved and must be escaped with the preceding '\\'",
    );
    expect(error("a-b")).toBe(
      "Character '-' is reserved and must be escaped with the preceding '\\'",
    );
    expect(error("(x)")).toBe(
      "Character '(' is reserved and must be escaped with the preceding '\\'",
    );
    expect(error("a!")).toBe(
      "Character '!' is reserved and must be escaped with the preceding '\\'",
    );
    expect(error("x *bold")).toBe("Can't find end of Bold entity at byte offset 2");
    expect(error("[t](http://x")).toBe("Can't find end of a URL at byte offset 4");
  });
});

describe("legacy Markdown parse mode", () => {
  it("parses bold, italic, code, pre and links without nesting", () => {
    expect(parseMarkdown("*b* _i_ `c` ```\np\n``` [t](http://a.example/) a\\_b 1.5!", ctx)).toEqual(
      {
        text: "b i c p\n t a_b 1.5!",
        entities: [
          { type: "bold", offset: 0, length: 1 },
          { type: "italic", offset: 2, length: 1 },
          { type: "code", offset: 4, length: 1 },
          { type: "pre", offset: 6, length: 2 },
          { type: "text_link", offset: 9, length: 1, url: "http://a.example/" },
        ],
      },
    );
  });

  it("reports an entity without an end", () => {
    expect(() => parseMarkdown("a *b", ctx)).toThrow(
      "Can't find end of the entity starting at byte offset 2",
    );
  });
});

describe("formatText", () => {
  it("detects commands, mentions, hashtags, URLs and e-mails like Telegram", () => {
    const text = "/start@kios_bot hi @budi_01 #promo https://kios.example/a. x@y.example";
    expect(detectEntities(text, [])).toEqual([
      { type: "bot_command", offset: 0, length: 15 },
      { type: "mention", offset: 19, length: 8 },
      { type: "hashtag", offset: 28, length: 6 },
      { type: "url", offset: 35, length: 22 },
      { type: "email", offset: 59, length: 11 },
    ]);
  });

  it("doesn't detect inside code", () => {
    expect(
      formatText(
        { text: "<code>/start</code>", parseMode: "HTML", entities: undefined },
        MESSAGE_TEXT,
        ctx,
      ),
    ).toEqual({ text: "/start", entities: [{ type: "code", offset: 0, length: 6 }] });
  });

  it("trims surrounding whitespace and moves entities with the text", () => {
    expect(
      formatText(
        { text: "  \n<b> hi</b>  ", parseMode: "HTML", entities: undefined },
        MESSAGE_TEXT,
        ctx,
      ),
    ).toEqual({ text: "hi", entities: [{ type: "bold", offset: 0, length: 2 }] });
  });

  it("counts the 4096 limit in characters after parsing", () => {
    const long = "😀".repeat(4096);
    expect(
      formatText({ text: long, parseMode: undefined, entities: undefined }, MESSAGE_TEXT, ctx).text,
    ).toBe(long);
    expect(() =>
      formatText(
        { text: `<b>${"a".repeat(4097)}</b>`, parseMode: "HTML", entities: undefined },
        MESSAGE_TEXT,
        ctx,
      ),
    ).toThrow("Bad Request: message is too long");
    expect(
      formatText(
        { text: `<b>${"a".repeat(4096)}</b>`, parseMode: "HTML", entities: undefined },
        MESSAGE_TEXT,
        ctx,
      ).text,
    ).toHaveLength(4096);
  });

  it("refuses an unknown parse mode and bad explicit entities", () => {
    expect(() =>
      formatText({ text: "x", parseMode: "BBCode", entities: undefined }, MESSAGE_TEXT, ctx),
    ).toThrow("Bad Request: unsupported parse_mode");
    expect(() =>
      formatText(
        { text: "x", parseMode: undefined, entities: [{ type: "shout", offset: 0, length: 1 }] },
        MESSAGE_TEXT,
        ctx,
      ),
    ).toThrow("Bad Request: can't parse MessageEntity: Unsupported type specified");
  });
});
