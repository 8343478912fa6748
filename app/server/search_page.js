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
// hits than articles, as many stories as articles at most.
function storiesGroup(result) {
  return result.stories > 0 && result.stories < result.total;
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

// The page's orders are its form's, named as the server names them: the
// first is the default, by relevance.
function defaultOrder() {
  return document.getElementById('sort').options[0].value;
}

// A link to the page searching as `state` says, the defaults left out; q
// is left out only of a like search that it does not narrow.
function pageLink(state) {
  const parts = [];
  if (state.q || !state.like) parts.push('q=' + encodeURIComponent(state.q || ''));
  if (state.like) parts.push('like=' + encodeURIComponent(state.like));
  if (state.sort && state.sort !== defaultOrder()) parts.push('sort=' + encodeURIComponent(state.sort));
  if (state.offset > 0) parts.push('offset=' + state.offset);
  if (state.collapse && state.collapse !== 'story') {
    parts.push('collapse=' + encodeURIComponent(state.collapse));
  }
  if (state.language) parts.push('language=' + encodeURIComponent(state.language));
  if (state.correct) parts.push('correct=' + encodeURIComponent(state.correct));
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
  // A report of the story of the article the hits are like.
  if (hit.same_story) parts.push(' · ', element('span', { class: 'same-story' }, 'same story'));
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
    collapse: state.collapse, sort: defaultOrder(), offset: 0 };
  item.append(element('p', { class: 'actions' },
    element('a', { class: 'like', href: pageLink(like) }, 'More like this')));
  return item;
}
