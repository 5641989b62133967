# Written by rdbgen 0.1.0: redis-server with the dataset of dump.rdb in /data, loaded at start-up.
FROM redis:7.2-alpine
COPY --chown=1000:1000 dump.rdb /data/dump.rdb
LABEL io.rdbgen.version="0.1.0" io.rdbgen.rdb-version="9" io.rdbgen.persist="true" io.rdbgen.keys="3" io.rdbgen.checksum="00000000000000ff"
# The server keeps its own save points: it saves the dataset back to /data.
# Arguments after the image name in docker run are added to the server's.
ENTRYPOINT ["docker-entrypoint.sh","redis-server","--dir","/data","--dbfilename","dump.rdb"]
CMD []
