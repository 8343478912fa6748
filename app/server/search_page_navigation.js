// The API's order for the page's: "Newest relevant" is by relevance, the
// default order, weighed by recency with the half-life its option carries.
function apiOrder(sort) {
  const option = document.querySelector('#sort option[data-recency]');
  if (option && sort === option.value) {
    return 'sort=' + encodeURIComponent(defaultOrder()) + '&recency=' +
      encodeURIComponent(option.dataset.recency);
  }
  return 'sort=' + encodeURIComponent(sort);
}

function stateOf(url) {
  const params = new URL(url, location.href).searchParams;
  return {
    q: params.get('q'),
    sort: params.get('sort') || defaultOrder(),
    offset: Number(params.get('offset') || 0),
    collapse: params.get('collapse') || 'story',
    like: params.get('like') || '',
    from: params.get('from') || '',
    language: params.get('language') || '',
    correct: params.get('correct') || '',
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
  if (state.correct) api += '&correct=' + encodeURIComponent(state.correct);
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
  // A like search stays one when reordered or regrouped, and a query
  // searched as typed stays uncorrected.
  const reorder = () => {
    const state = stateOf(location.href);
    if (state.like) {
      search({ ...state, sort: sort.value, collapse: collapse.value, offset: 0 }, true);
    } else if (input.value) {
      search({ ...formState(), correct: input.value === state.q ? state.correct : '' }, true);
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
