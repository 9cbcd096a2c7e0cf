import type { Catalogue } from "./locale";

// What the player iframe itself says to a viewer (browser/player): control labels, the seek
// slider's value text, the loading and failure notices. The share's title and CTA label are the
// customer's words and never pass through here; errors reported to the host stay English.

export type PlayerMessageId =
  | "video"
  | "play"
  | "pause"
  | "replay"
  | "mute"
  | "unmute"
  | "seek"
  | "seekValue"
  | "timeDisplay"
  | "fullscreen"
  | "exitFullscreen"
  | "loading"
  | "unavailable"
  | "playbackFailed";

export const playerMessages: Catalogue<PlayerMessageId> = {
  en: {
    video: "Video",
    play: "Play",
    pause: "Pause",
    replay: "Replay",
    mute: "Mute",
    unmute: "Unmute",
    seek: "Seek",
    seekValue: "{position} of {duration}",
    timeDisplay: "{position} / {duration}",
    fullscreen: "Full screen",
    exitFullscreen: "Exit full screen",
    loading: "Loading video…",
    unavailable: "This video is unavailable.",
    playbackFailed: "This video could not be played.",
  },
  de: {
    video: "Video",
    play: "Abspielen",
    pause: "Pausieren",
    replay: "Erneut abspielen",
    mute: "Ton aus",
    unmute: "Ton an",
    seek: "Wiedergabeposition",
    seekValue: "{position} von {duration}",
    timeDisplay: "{position} / {duration}",
    fullscreen: "Vollbild",
    exitFullscreen: "Vollbild beenden",
    loading: "Video wird geladen …",
    unavailable: "Dieses Video ist nicht verfügbar.",
    playbackFailed: "Dieses Video konnte nicht abgespielt werden.",
  },
  fr: {
    video: "Vidéo",
    play: "Lire",
    pause: "Pause",
    replay: "Revoir",
    mute: "Couper le son",
    unmute: "Réactiver le son",
    seek: "Position de lecture",
    seekValue: "{position} sur {duration}",
    timeDisplay: "{position} / {duration}",
    fullscreen: "Plein écran",
    exitFullscreen: "Quitter le plein écran",
    loading: "Chargement de la vidéo…",
    unavailable: "Cette vidéo n’est pas disponible.",
    playbackFailed: "Impossible de lire cette vidéo.",
  },
  es: {
    video: "Vídeo",
    play: "Reproducir",
    pause: "Pausar",
    replay: "Volver a reproducir",
    mute: "Silenciar",
    unmute: "Activar sonido",
    seek: "Posición de reproducción",
    seekValue: "{position} de {duration}",
    timeDisplay: "{position} / {duration}",
    fullscreen: "Pantalla completa",
    exitFullscreen: "Salir de pantalla completa",
    loading: "Cargando vídeo…",
    unavailable: "Este vídeo no está disponible.",
    playbackFailed: "No se ha podido reproducir este vídeo.",
  },
  "pt-BR": {
    video: "Vídeo",
    play: "Reproduzir",
    pause: "Pausar",
    replay: "Assistir de novo",
    mute: "Desativar som",
    unmute: "Ativar som",
    seek: "Posição da reprodução",
    seekValue: "{position} de {duration}",
    timeDisplay: "{position} / {duration}",
    fullscreen: "Tela cheia",
    exitFullscreen: "Sair da tela cheia",
    loading: "Carregando vídeo…",
    unavailable: "Este vídeo não está disponível.",
    playbackFailed: "Não foi possível reproduzir este vídeo.",
  },
  it: {
    video: "Video",
    play: "Riproduci",
    pause: "Metti in pausa",
    replay: "Riproduci di nuovo",
    mute: "Disattiva audio",
    unmute: "Riattiva audio",
    seek: "Posizione di riproduzione",
    seekValue: "{position} di {duration}",
    timeDisplay: "{position} / {duration}",
    fullscreen: "Schermo intero",
    exitFullscreen: "Esci da schermo intero",
    loading: "Caricamento del video…",
    unavailable: "Questo video non è disponibile.",
    playbackFailed: "Impossibile riprodurre questo video.",
  },
  nl: {
    video: "Video",
    play: "Afspelen",
    pause: "Pauzeren",
    replay: "Opnieuw afspelen",
    mute: "Geluid uit",
    unmute: "Geluid aan",
    seek: "Afspeelpositie",
    seekValue: "{position} van {duration}",
    timeDisplay: "{position} / {duration}",
    fullscreen: "Volledig scherm",
    exitFullscreen: "Volledig scherm sluiten",
    loading: "Video wordt geladen…",
    unavailable: "Deze video is niet beschikbaar.",
    playbackFailed: "Deze video kan niet worden afgespeeld.",
  },
  ja: {
    video: "動画",
    play: "再生",
    pause: "一時停止",
    replay: "もう一度再生",
    mute: "ミュート",
    unmute: "ミュート解除",
    seek: "再生位置",
    seekValue: "{duration}中 {position}",
    timeDisplay: "{position} / {duration}",
    fullscreen: "全画面表示",
    exitFullscreen: "全画面表示を終了",
    loading: "動画を読み込んでいます…",
    unavailable: "この動画はご利用いただけません。",
    playbackFailed: "この動画を再生できませんでした。",
  },
  ar: {
    video: "فيديو",
    play: "تشغيل",
    pause: "إيقاف مؤقت",
    replay: "إعادة التشغيل",
    mute: "كتم الصوت",
    unmute: "إلغاء كتم الصوت",
    seek: "موضع التشغيل",
    seekValue: "{position} من {duration}",
    timeDisplay: "{position} / {duration}",
    fullscreen: "ملء الشاشة",
    exitFullscreen: "الخروج من ملء الشاشة",
    loading: "جارٍ تحميل الفيديو…",
    unavailable: "هذا الفيديو غير متاح.",
    playbackFailed: "تعذّر تشغيل هذا الفيديو.",
  },
};
