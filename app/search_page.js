// The search page without reloads: searches through /api/search and draws
// the same markup the server renders when JavaScript is off. Article text
// only ever becomes text nodes, never markup; highlights are placed from the
// API's offsets, which count Unicode code points.
'use strict';

const PAGE_HITS = 10;
const FACETS = 'source,category,date';
const FACET_VALUES_SHOWN = 10;
const MAX_OFFSET = 10000;

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

// `text` with each [begin, end) of `ranges`, in code points, in <mark>.
function highlighted(text, ranges) {
  const fragment = document.createDocumentFragment();
  const chars = Array.from(text);
  let at = 0;
  for (const [begin, end] of ranges || []) {
    if (begin < at || end <= begin) continue;
    fragment.append(chars.slice(at, begin).join(''));
    fragment.append(element('mark', {}, chars.slice(begin, end).join('')));
    at = end;
  }
  fragment.append(chars.slice(at).join(''));
  return fragment;
}

function withThousands(number) {
  return String(number).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function totalText(result) {
  return withThousands(result.total) + (result.total_relation === 'gte' ? '+' : '');
}

function countText(result) {
  if (result.total === 0) return 'No articles match.';
  if (result.total === 1 && result.total_relation === 'eq') return '1 article matches';
  return totalText(result) + ' articles match';
}

function pageLink(query, sort, offset) {
  let link = '/?q=' + encodeURIComponent(query);
  if (sort && sort !== 'relevance') link += '&sort=' + encodeURIComponent(sort);
  if (offset > 0) link += '&offset=' + offset;
  return link;
}

function articleLink(id, query) {
  let link = '/articles/' + encodeURIComponent(id);
  if (query) link += '?q=' + encodeURIComponent(query);
  return link;
}

// The query narrowed to one value of a facet, as the query language writes
// a filter.
function narrowed(query, field, value) {
  const filter = field === 'date' ? 'date:' + value : field + ':"' + value.replaceAll('"', '') + '"';
  return query ? query + ' ' + filter : filter;
}

function meta(hit) {
  const parts = [];
  for (const [name, value] of [['date', (hit.date || '').slice(0, 10)],
    ['source', hit.source], ['category', hit.category]]) {
    if (!value) continue;
    if (parts.length) parts.push(' · ');
    parts.push(element('span', { class: name }, value));
  }
  return element('p', { class: 'meta' }, ...parts);
}

function hitItem(hit, query) {
  const title = hit.title ? highlighted(hit.title, hit.title_highlights) : hit.id;
  const item = element('li', { class: 'hit' },
    element('h2', { class: 'title' }, element('a', { href: articleLink(hit.id, query) }, title)),
    meta(hit));
  if (hit.snippet) {
    item.append(element('p', { class: 'snippet' }, highlighted(hit.snippet, hit.highlights)));
  }
  return item;
}

function facetsAside(result, state) {
  const sections = [];
  for (const [field, values] of Object.entries(result.facets || {})) {
    if (!values.length) continue;
    const list = element('ul');
    for (const [value, count] of values.slice(0, FACET_VALUES_SHOWN)) {
      const link = pageLink(narrowed(state.q, field, value), state.sort, 0);
      list.append(element('li', {}, element('a', { href: link }, value), ' ',
        element('span', { class: 'n' }, String(count))));
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
    parts.push(element('a', { rel: 'prev', href: pageLink(state.q, state.sort, previous) },
      '← Previous'));
  }
  if (result.hits.length) {
    const first = result.hits[0].rank;
    const last = result.hits[result.hits.length - 1].rank;
    parts.push(element('span', { class: 'range' }, first + '–' + last + ' of ' + totalText(result)));
  }
  const next = state.offset + PAGE_HITS;
  if (next < result.total && next <= MAX_OFFSET) {
    parts.push(element('a', { rel: 'next', href: pageLink(state.q, state.sort, next) }, 'Next →'));
  }
  return parts.length ? element('nav', { class: 'pages', 'aria-label': 'Pages' }, ...parts) : null;
}

function renderResult(result, state) {
  const nodes = [];
  if (result.suggestion) {
    nodes.push(element('p', { class: 'suggestion' },
      result.corrected ? 'Showing results for ' : 'Did you mean ',
      element('a', { href: pageLink(result.suggestion, state.sort, 0) }, result.suggestion)));
  }
  for (const note of result.notes || []) nodes.push(element('p', { class: 'note' }, note));
  for (const warning of result.warnings || []) {
    nodes.push(element('p', { class: 'warning' }, warning));
  }
  nodes.push(element('p', { class: 'count', id: 'count' }, countText(result)));
  const hits = element('ol', { class: 'hits', start: String(state.offset + 1) },
    ...result.hits.map((hit) => hitItem(hit, state.q)));
  const results = element('div', { class: 'results' }, hits);
  const facets = facetsAside(result, state);
  if (facets) results.append(facets);
  nodes.push(results);
  const pages = pagesNav(result, state);
  if (pages) nodes.push(pages);
  return nodes;
}

function stateOf(url) {
  const params = new URL(url, location.href).searchParams;
  return {
    q: params.get('q'),
    sort: params.get('sort') || 'relevance',
    offset: Number(params.get('offset') || 0),
  };
}

let latest = 0;

async function search(state, push) {
  const main = document.getElementById('main');
  const link = pageLink(state.q, state.sort, state.offset);
  if (push) history.pushState(null, '', link);
  document.getElementById('q').value = state.q;
  document.getElementById('sort').value = state.sort;
  document.title = state.q ? state.q + ' — Quarry' : 'Quarry';
  const api = '/api/search?q=' + encodeURIComponent(state.q) + '&sort=' +
    encodeURIComponent(state.sort) + '&offset=' + state.offset + '&n=' + PAGE_HITS +
    '&facets=' + FACETS + '&collapse=none';
  // Answers may come back out of order: only the latest search is drawn.
  const mine = ++latest;
  let nodes;
  try {
    const response = await fetch(api);
    const answer = await response.json();
    nodes = response.ok ? renderResult(answer, state)
      : [element('p', { class: 'error', role: 'alert' }, answer.error)];
  } catch (error) {
    nodes = [element('p', { class: 'error', role: 'alert' }, 'The server did not answer: ' + error)];
  }
  if (mine !== latest) return;
  main.replaceChildren(...nodes);
  document.body.dataset.ready = String(mine);
}

// Completions of the last word typed, offered by the browser's own list.
let suggestTimer = 0;

function suggest(input, list) {
  clearTimeout(suggestTimer);
  suggestTimer = setTimeout(async () => {
    const query = input.value;
    if (!query.trim()) return list.replaceChildren();
    try {
      const response = await fetch('/api/suggest?n=8&q=' + encodeURIComponent(query));
      if (!response.ok || input.value !== query) return;
      const answer = await response.json();
      list.replaceChildren(...answer.completions.map((text) => element('option', { value: text })));
    } catch (error) {
      list.replaceChildren();
    }
  }, 120);
}

function start() {
  const form = document.getElementById('search');
  const input = document.getElementById('q');
  const sort = document.getElementById('sort');
  const onSearchPage = location.pathname === '/';
  input.addEventListener('input', () => suggest(input, document.getElementById('completions')));
  document.addEventListener('keydown', (event) => {
    const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement.tagName);
    if (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      input.focus();
      input.select();
    }
  });
  if (!onSearchPage) return;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    search({ q: input.value, sort: sort.value, offset: 0 }, true);
  });
  sort.addEventListener('change', () => {
    if (input.value) search({ q: input.value, sort: sort.value, offset: 0 }, true);
  });
  document.getElementById('main').addEventListener('click', (event) => {
    const link = event.target.closest('a');
    if (!link || !link.getAttribute('href').startsWith('/?') || event.button !== 0 ||
        event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    search(stateOf(link.href), true);
    window.scrollTo(0, 0);
  });
  window.addEventListener('popstate', () => {
    const state = stateOf(location.href);
    if (state.q !== null) {
      search(state, false);
    } else {
      input.value = '';
      document.getElementById('main').replaceChildren();
    }
  });
  if (!input.value) input.focus();
  document.body.dataset.ready = '0';
}

start();
