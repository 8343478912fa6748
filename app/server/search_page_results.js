// The timeline's geometry, as search_page_printer.cc draws it: a slot of
// the viewBox a month or year, bars thinner when few fill the width.
const SLOT_WIDTH = 20;
const CHART_HEIGHT = 40;
const FEW_SLOTS = 6;
const SVG = 'http://www.w3.org/2000/svg';

function svgElement(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

// The place of "YYYY-MM" or "YYYY" on a timeline of months or years.
function slotOf(date) {
  const year = Number(date.slice(0, 4));
  return date.length > 4 ? year * 12 + Number(date.slice(5, 7)) - 1 : year;
}

// The date facet as a timeline, the markup the server writes: a bar a
// month (or year), each a link narrowing the search to it.
function timeline(values, state) {
  let earliest = values[0];
  let latest = values[0];
  let most = 0;
  for (const value of values) {
    if (slotOf(value[0]) < slotOf(earliest[0])) earliest = value;
    if (slotOf(value[0]) > slotOf(latest[0])) latest = value;
    most = Math.max(most, value[1]);
  }
  const first = slotOf(earliest[0]);
  const slots = slotOf(latest[0]) - first + 1;
  const width = slots < FEW_SLOTS ? 6 : 16;
  const svg = svgElement('svg', { class: 'timeline', viewBox: '0 0 ' + slots * SLOT_WIDTH + ' ' +
    CHART_HEIGHT, preserveAspectRatio: 'none', role: 'group',
  'aria-label': earliest[0].length > 4 ? 'Matches by month' : 'Matches by year' });
  for (const [value, count] of values) {
    const bar = Math.max(1, Math.floor((count * CHART_HEIGHT + Math.floor(most / 2)) / most));
    const x = (slotOf(value) - first) * SLOT_WIDTH + Math.floor((SLOT_WIDTH - width) / 2);
    const link = pageLink({ ...state, q: narrowed(state.q, 'date', value), offset: 0 });
    svg.append(svgElement('a', { href: link },
      svgElement('title', {}, value + ': ' + withThousands(count) + (count === 1 ? ' article' : ' articles')),
      svgElement('rect', { x: String(x), y: String(CHART_HEIGHT - bar), width: String(width),
        height: String(bar) })));
  }
  const axis = element('p', { class: 'axis' }, element('span', {}, earliest[0]));
  if (latest !== earliest) axis.append(element('span', {}, latest[0]));
  return [svg, axis];
}

function facetsAside(result, state) {
  const sections = [];
  for (const [field, values] of Object.entries(result.facets || {})) {
    if (!values.length) continue;
    if (field === 'date') {
      sections.push(element('section', { class: 'facet dates' }, element('h2', {}, field),
        ...timeline(values, state)));
      continue;
    }
    const list = element('ul');
    for (const [value, count] of values.slice(0, FACET_VALUES_SHOWN)) {
      const link = pageLink({ ...state, q: narrowed(state.q, field, value), offset: 0 });
      list.append(element('li', {}, element('a', { href: link }, value), ' ',
        element('span', { class: 'n' }, String(count))));
    }
    // As text says it: the values past those shown are there to narrow by
    // too, from the query.
    if (values.length > FACET_VALUES_SHOWN) {
      list.append(element('li', { class: 'rest' },
        withThousands(values.length - FACET_VALUES_SHOWN) + ' more'));
    }
    sections.push(element('section', { class: 'facet' }, element('h2', {}, field), list));
  }
  return sections.length ? element('aside', { class: 'facets', 'aria-label': 'Narrow' }, ...sections)
    : null;
}

function pagesNav(result, state) {
  const parts = [];
  if (state.offset > 0) {
    const previous = Math.max(0, state.offset - PAGE_HITS);
    parts.push(element('a', { rel: 'prev', href: pageLink({ ...state, offset: previous }) },
      '← Previous'));
  }
  if (result.hits.length) {
    const first = result.hits[0].rank;
    const last = result.hits[result.hits.length - 1].rank;
    parts.push(element('span', { class: 'range' }, first + '–' + last + ' of ' + shownText(result)));
  }
  const next = state.offset + PAGE_HITS;
  if (next < result.stories && next <= MAX_OFFSET) {
    parts.push(element('a', { rel: 'next', href: pageLink({ ...state, offset: next }) }, 'Next →'));
  }
  return parts.length ? element('nav', { class: 'pages', 'aria-label': 'Pages' }, ...parts) : null;
}

// What the hits are like, and the way back to the query that led there.
function likeNodes(state, likeTitle) {
  const nodes = [element('p', { class: 'like' }, 'Articles like ',
    element('a', { href: articleLink(state.like, '') }, likeTitle || state.like))];
  if (state.from) {
    const back = { q: state.from, sort: defaultOrder(), offset: 0, collapse: state.collapse };
    nodes.push(element('p', { class: 'back' },
      element('a', { href: pageLink(back) }, '← Results for ' + state.from)));
  }
  return nodes;
}

// The one language searched, and the way to every language.
function languageNote(state) {
  return element('p', { class: 'language' }, 'Only articles in ',
    element('span', {}, state.language), ': ',
    element('a', { href: pageLink({ ...state, offset: 0, language: '' }) },
      'search every language'));
}

// The suggestion, a link searching it; when it was searched instead, as
// the server says it, a link searching the query as typed, never corrected.
function suggestionNote(result, state) {
  const suggested = { q: result.suggestion, sort: state.sort, offset: 0, collapse: state.collapse,
    language: state.language, correct: state.correct };
  const note = element('p', { class: 'suggestion' },
    result.corrected ? 'Showing results for ' : 'Did you mean ',
    element('a', { href: pageLink(suggested) }, result.suggestion));
  if (result.corrected) {
    const typed = { ...state, q: result.query, offset: 0, correct: 'never' };
    note.append('; search instead for ',
      element('a', { class: 'instead', href: pageLink(typed) }, result.query));
  }
  return note;
}

function renderResult(result, state, likeTitle) {
  const nodes = state.like ? likeNodes(state, likeTitle) : [];
  if (state.language) nodes.push(languageNote(state));
  if (result.suggestion) nodes.push(suggestionNote(result, state));
  for (const note of result.notes || []) nodes.push(element('p', { class: 'note' }, note));
  for (const warning of result.warnings || []) {
    nodes.push(element('p', { class: 'warning' }, warning));
  }
  nodes.push(element('p', { class: 'count', id: 'count' }, countText(result)));
  const past = pastEndText(result, state);
  if (past) nodes.push(element('p', { class: 'note', id: 'past-end' }, past));
  const hits = element('ol', { class: 'hits', start: String(state.offset + 1) },
    ...result.hits.map((hit) => hitItem(hit, state)));
  const results = element('div', { class: 'results' }, hits);
  const facets = facetsAside(result, state);
  if (facets) results.append(facets);
  nodes.push(results);
  const pages = pagesNav(result, state);
  if (pages) nodes.push(pages);
  return nodes;
}
