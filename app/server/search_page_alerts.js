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
