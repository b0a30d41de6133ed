function settleImages(body) {
  const images = Array.from(document.images);
  const settled = images.filter(i => i.complete);
  const loaded = settled.filter(i => i.naturalWidth > 0).length;
  body.dataset.imagesTotal = String(settled.length);
  body.dataset.imagesLoaded = String(loaded);
  body.dataset.imagesPending = String(images.length - settled.length);
  body.dataset.state = loaded === settled.length ? 'ready' : 'broken-images';
  images.filter(i => !i.complete && !i.dataset.watched).forEach(i => {
    i.dataset.watched = '1';
    const again = () => settleImages(body);
    i.addEventListener('load', again);
    i.addEventListener('error', again);
  });
}
