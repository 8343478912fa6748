// The search page without reloads: searches through /api/search and draws
// the same markup the server renders when JavaScript is off. Article text
// only ever becomes text nodes, never markup; highlights are placed from the
// API's offsets, which count Unicode code points.
'use strict';

const PAGE_HITS = 10;
const FACETS = 'source,category,language,date';
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

function storiesText(result) {
  return (result.stories_relation === 'about' ? 'about ' : '') + withThousands(result.stories) +
    (result.stories === 1 ? ' story' : ' stories');
}

// As the server says it (stories_group): whether the matches make fewer
// hits than articles; past the count limit, whether the estimate of them
// differs from the total.
function storiesGroup(result) {
  return result.stories > 0 && (result.stories < result.total ||
    (result.total_relation === 'gte' && result.stories !== result.total));
}

// As the server says it: the stories too when they group the matches.
function countText(result) {
  if (result.total === 0) return 'No articles match.';
  if (result.total === 1 && result.total_relation === 'eq') return '1 article matches';
  let text = totalText(result) + ' articles match';
  if (storiesGroup(result)) text += ', ' + storiesText(result);
  return text;
}

// The pages go through the hits shown: the stories when one hit stands for
// each, else the articles.
function shownText(result) {
  return storiesGroup(result) ? storiesText(result) : totalText(result);
}

// As the server says it (past_end_text): a page of no hits after the last.
function pastEndText(result, state) {
  if (result.hits.length || result.total === 0 || state.offset === 0 ||
      state.offset < result.stories) {
    return '';
  }
  const last = state.collapse === 'none'
    ? totalText(result) + (result.total === 1 ? ' article' : ' articles')
    : storiesText(result);
  return 'No hits here: the page starts at ' + withThousands(state.offset + 1) +
    ', past the last of ' + last + '.';
}

// A link to the page searching as `state` says, the defaults left out; q
// is left out only of a like search that it does not narrow.
function pageLink(state) {
  const parts = [];
  if (state.q || !state.like) parts.push('q=' + encodeURIComponent(state.q || ''));
  if (state.like) parts.push('like=' + encodeURIComponent(state.like));
  if (state.sort && state.sort !== 'relevance') parts.push('sort=' + encodeURIComponent(state.sort));
  if (state.offset > 0) parts.push('offset=' + state.offset);
  if (state.collapse && state.collapse !== 'story') {
    parts.push('collapse=' + encodeURIComponent(state.collapse));
  }
  if (state.language) parts.push('language=' + encodeURIComponent(state.language));
  if (state.like && state.from) parts.push('from=' + encodeURIComponent(state.from));
  return '/?' + parts.join('&');
}

function articleLink(id, query) {
  let link = '/articles/' + encodeURIComponent(id);
  if (query) link += '?q=' + encodeURIComponent(query);
  return link;
}

// The query narrowed to one value of a facet, as the query language writes
// a filter: dates and languages ("fr") are one word, others are quoted.
function narrowed(query, field, value) {
  const filter = field === 'date' || field === 'language' ? field + ':' + value
    : field + ':"' + value.replaceAll('"', '') + '"';
  return query ? query + ' ' + filter : filter;
}

function meta(hit) {
  const parts = [];
  for (const [name, value] of [['date', (hit.date || '').slice(0, 10)],
    ['source', hit.source], ['category', hit.category], ['language', hit.language]]) {
    if (!value) continue;
    if (parts.length) parts.push(' · ');
    parts.push(element('span', { class: name }, value));
  }
  return element('p', { class: 'meta' }, ...parts);
}

// The stored article of `id`, once per page: for the titles of reports.
const articles = new Map();

function article(id) {
  if (!articles.has(id)) {
    articles.set(id, fetch('/api/articles/' + encodeURIComponent(id))
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null));
  }
  return articles.get(id);
}

// A report listed by its id until its title has come.
function reportItem(id, query) {
  const link = element('a', { href: articleLink(id, query) }, id);
  const item = element('li', {}, link);
  article(id).then((found) => {
    if (!found) return;
    if (found.title) link.textContent = found.title;
    const parts = [];
    for (const [name, value] of [['date', (found.date || '').slice(0, 10)],
      ['source', found.source]]) {
      if (!value) continue;
      if (parts.length) parts.push(' · ');
      parts.push(element('span', { class: name }, value));
    }
    if (parts.length) item.append(' ', element('span', { class: 'meta' }, ...parts));
  });
  return item;
}

// "+2 more reports", opening the list of the others; their titles are
// fetched when it first opens.
function reportsDetails(story, query) {
  const count = story.more_count;
  const list = element('ul', { class: 'reports' });
  const details = element('details', { class: 'more' },
    element('summary', {}, '+' + withThousands(count) + (count === 1 ? ' more report' : ' more reports')),
    list);
  details.addEventListener('toggle', () => {
    if (!details.open || list.childElementCount) return;
    list.append(...story.more.map((id) => reportItem(id, query)));
    if (story.more.length < count) {
      list.append(element('li', { class: 'rest' },
        '… and ' + withThousands(count - story.more.length) + ' more'));
    }
  });
  return details;
}

function hitItem(hit, state) {
  const title = hit.title ? highlighted(hit.title, hit.title_highlights) : hit.id;
  const item = element('li', { class: 'hit' },
    element('h2', { class: 'title' }, element('a', { href: articleLink(hit.id, state.q) }, title)),
    meta(hit));
  if (hit.snippet) {
    item.append(element('p', { class: 'snippet' }, highlighted(hit.snippet, hit.highlights)));
  }
  if (hit.story) item.append(reportsDetails(hit.story, state.q));
  // Back from the articles like this one goes to the query the reader
  // searched, however many likes deep.
  const like = { q: '', like: hit.id, from: state.like ? state.from : state.q,
    collapse: state.collapse, sort: 'relevance', offset: 0 };
  item.append(element('p', { class: 'actions' },
    element('a', { class: 'like', href: pageLink(like) }, 'More like this')));
  return item;
}

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
  // Shown one hit a story, articles like one are other stories: say so,
  // for a reader who looks for the reports of its own.
  if (state.collapse === 'story') {
    nodes.push(element('p', { class: 'note' }, 'Its own story is left out: ',
      element('a', { href: pageLink({ ...state, offset: 0, collapse: 'none' }) },
        'show all reports')));
  }
  if (state.from) {
    const back = { q: state.from, sort: 'relevance', offset: 0, collapse: state.collapse };
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

function renderResult(result, state, likeTitle) {
  const nodes = state.like ? likeNodes(state, likeTitle) : [];
  if (state.language) nodes.push(languageNote(state));
  if (result.suggestion) {
    const corrected = { q: result.suggestion, sort: state.sort, offset: 0, collapse: state.collapse,
      language: state.language };
    nodes.push(element('p', { class: 'suggestion' },
      result.corrected ? 'Showing results for ' : 'Did you mean ',
      element('a', { href: pageLink(corrected) }, result.suggestion)));
  }
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

// The API's order for the page's: "Newest relevant" is by relevance,
// weighed by recency with the half-life its option carries.
function apiOrder(sort) {
  const option = document.querySelector('#sort option[data-recency]');
  if (option && sort === option.value) {
    return 'sort=relevance&recency=' + encodeURIComponent(option.dataset.recency);
  }
  return 'sort=' + encodeURIComponent(sort);
}

function stateOf(url) {
  const params = new URL(url, location.href).searchParams;
  return {
    q: params.get('q'),
    sort: params.get('sort') || 'relevance',
    offset: Number(params.get('offset') || 0),
    collapse: params.get('collapse') || 'story',
    like: params.get('like') || '',
    from: params.get('from') || '',
    language: params.get('language') || '',
  };
}

function titleOf(state, likeTitle) {
  if (state.like) {
    return 'Articles like ' + (likeTitle || state.like) + (state.q ? ': ' + state.q : '') +
      ' — Quarry';
  }
  return state.q ? state.q + ' — Quarry' : 'Quarry';
}

let latest = 0;

async function search(state, push) {
  const main = document.getElementById('main');
  if (push) history.pushState(null, '', pageLink(state));
  document.getElementById('q').value = state.q || '';
  document.getElementById('sort').value = state.sort;
  document.getElementById('collapse').value = state.collapse;
  document.title = titleOf(state, '');
  let api = '/api/search?q=' + encodeURIComponent(state.q || '') + '&' +
    apiOrder(state.sort) + '&offset=' + state.offset + '&n=' + PAGE_HITS +
    '&facets=' + FACETS + '&collapse=' + encodeURIComponent(state.collapse);
  if (state.like) api += '&like=' + encodeURIComponent(state.like);
  if (state.language) api += '&language=' + encodeURIComponent(state.language);
  // Answers may come back out of order: only the latest search is drawn.
  const mine = ++latest;
  articles.clear();
  let nodes;
  try {
    const [response, liked] = await Promise.all([fetch(api),
      state.like ? article(state.like) : null]);
    const answer = await response.json();
    const likeTitle = liked ? liked.title : '';
    nodes = response.ok ? renderResult(answer, state, likeTitle)
      : [element('p', { class: 'error', role: 'alert' }, answer.error)];
    if (mine === latest) document.title = titleOf(state, likeTitle);
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
  const collapse = document.getElementById('collapse');
  // The language searched goes with the next query, as the form's hidden
  // field takes it without JavaScript.
  const formState = () => ({ q: input.value, sort: sort.value, offset: 0,
    collapse: collapse.value, like: '', from: '', language: stateOf(location.href).language });
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
    search(formState(), true);
  });
  // A like search stays one when reordered or regrouped.
  const reorder = () => {
    const state = stateOf(location.href);
    if (state.like) {
      search({ ...state, sort: sort.value, collapse: collapse.value, offset: 0 }, true);
    } else if (input.value) {
      search(formState(), true);
    }
  };
  sort.addEventListener('change', reorder);
  collapse.addEventListener('change', reorder);
  document.getElementById('main').addEventListener('click', (event) => {
    const link = event.target.closest('a');
    if (!link || !link.getAttribute('href').startsWith('/?') || event.button !== 0 ||
        event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    // A bar of the timeline is an SVG link, whose href is no string.
    search(stateOf(link.getAttribute('href')), true);
    window.scrollTo(0, 0);
  });
  window.addEventListener('popstate', () => {
    const state = stateOf(location.href);
    if (state.q !== null || state.like) {
      search(state, false);
    } else {
      input.value = '';
      document.getElementById('main').replaceChildren();
    }
  });
  if (!input.value) input.focus();
  document.body.dataset.ready = '0';
}

// Alerts of the index's saved searches as they arrive while the page is
// open, newest first: the panel shows with the first. EventSource comes back
// by itself after a break, from the last alert it got.
const ALERTS_SHOWN = 10;

function followAlerts() {
  const panel = document.getElementById('alerts');
  if (!panel || typeof EventSource === 'undefined') return;
  const list = panel.querySelector('ol');
  const source = new EventSource('/api/alerts?since=' + encodeURIComponent(panel.dataset.since));
  source.addEventListener('alert', (event) => {
    let alert;
    try {
      alert = JSON.parse(event.data);
    } catch {
      return;
    }
    const item = element('li', { class: 'alert' },
      element('span', { class: 'alert-name' }, alert.alert), ' ',
      element('a', { href: '/articles/' + encodeURIComponent(alert.id) }, alert.title || alert.id));
    if (alert.date) item.append(' ', element('span', { class: 'date' }, alert.date));
    list.prepend(item);
    while (list.children.length > ALERTS_SHOWN) list.lastElementChild.remove();
    panel.hidden = false;
  });
}

start();
followAlerts();
